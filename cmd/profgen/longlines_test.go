package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongBadInputBounded feeds every text parser a bad line (or token) of
// 1 MiB and checks that what profgen prints, error included, stays short:
// at most 300 characters, the bad input quoted at most 80 bytes
// (issue 11 item 8).
func TestLongBadInputBounded(t *testing.T) {
	huge := strings.Repeat("z", 1<<20)
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bin := "../../internal/driver/testdata/t.bin"
	mmap := "PERF_RECORD_MMAP2 1234/1234: [0x401000(0x1000) @ 0x1000 fe:00 1 2]: r-xp /x/t.bin\n"
	out := filepath.Join(dir, "out")
	tests := []struct {
		name string
		args []string
		ok   bool // the run succeeds (the bad input is only warned about)
	}{
		{"perf script: bad mmap line", []string{"--binary", bin, "--perfscript", file("mmap.script", "PERF_RECORD_MMAP2 1/1: ["+huge+"\n"), "-o", out}, false},
		{"perf script: bad call-chain frame", []string{"--binary", bin, "--perfscript", file("frame.script", "prog 1 [000] 1.0: 1 cycles:\n\t"+huge+" main\n"), "-o", out}, false},
		{"perf script: bad brstack entry", []string{"--binary", bin, "--format=text", "--perfscript", file("lbr.script", mmap+" 401139 0x40111f/0x401139/P/-/-/0 0x401114/0x40111c/P/-/-/0 0x401134/0x401110/P/-/-/0\n 401139 0x40111f/0x401139/P/-/-/0 0x401114/"+huge+"\n"), "-o", out}, true},
		{"unsymbolized profile", []string{"--binary", bin, "--unsymbolized-profile", file("u.raw", "1\n0-"+huge+":1\n"), "-o", out}, false},
		{"unsymbolized profile: count", []string{"--binary", bin, "--unsymbolized-profile", file("u2.raw", huge+"\n"), "-o", out}, false},
		{"llvm sample profile", []string{"--binary", bin, "--llvm-sample-profile", file("s.txt", huge+"\n"), "-o", out}, false},
		{"text sample profile: show", []string{"show", file("show.txt", "main:1:1\n 1: "+huge+"\n")}, false},
		{"text sample profile: merge", []string{"merge", "--sample", "-o", out, file("merge.txt", "main:1:1\n 1: 1\n"+huge+"\n")}, false},
		{"text sample profile: call target", []string{"merge", "--sample", "-o", out, file("target.txt", "main:1:1\n 1: 1 "+huge+"\n")}, false},
		{"instrumentation text", []string{"merge", "-o", out, file("p.proftext", "# IR level Instrumentation Flag\n:ir\nmain\n"+huge+"\n")}, false},
		{"instrumentation text: header", []string{"merge", "-o", out, file("h.proftext", ":"+huge+"\n")}, false},
		{"remapping file", []string{"merge", "--sample", "-r", file("remap.txt", huge+" a b\n"), "-o", out, file("ok.txt", "main:1:1\n 1: 1\n")}, false},
		{"input files list", []string{"merge", "-f", file("inputs.txt", huge+",x.profraw\n"), "-o", out}, false},
		{"weighted input", []string{"merge", "--weighted-input=" + huge + ",x.profraw", "-o", out}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, err := runInProcess(tt.args)
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want success %v", err, tt.ok)
			}
			printed := stderr
			if err != nil {
				printed += "profgen: error: " + err.Error() + "\n"
			}
			for _, l := range strings.Split(printed, "\n") {
				if len(l) > 300 {
					t.Errorf("a line of %d characters: %.200s...", len(l), l)
				}
			}
			if len(printed) > 2000 {
				t.Errorf("%d characters printed", len(printed))
			}
		})
	}
}
