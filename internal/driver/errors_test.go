package driver

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary"
)

const callstackDir = "../../testdata/callstack/"

func TestOutputPath(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		out, bin string
		format   outputFormat
		n        int
		want     string
		ok       bool
	}{
		{"a.prof", "/x/app", formatLLVM, 1, "a.prof", true},
		{"p/%b.afdo", "/x/app", formatGCC, 2, "p/app.afdo", true},
		{dir, "/x/app", formatLLVM, 2, filepath.Join(dir, "app.prof"), true},
		{dir, "/x/app", formatLLVM, 1, filepath.Join(dir, "app.prof"), true},
		{"a.prof", "/x/app", formatLLVM, 2, "", false},
		{dir, "/x/libfoo.so", formatGCC, 2, filepath.Join(dir, "libfoo.so.afdo"), true},
		{dir, "/x/app", formatBolt, 2, filepath.Join(dir, "app.fdata"), true},
		{dir, "/x/app", formatPreagg, 1, filepath.Join(dir, "app.preagg"), true},
		{dir, "/x/app", formatPprof, 1, filepath.Join(dir, "app.pb.gz"), true},
		{dir, "/x/app", formatAddress, 2, filepath.Join(dir, "app.raw"), true},
	}
	for _, tt := range tests {
		got, err := outputPathExt(tt.out, tt.bin, formatColumns[tt.format].ext, tt.n)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("%s: outputPathExt(%q, %q, %d) = %q, %v; want %q, ok=%v", tt.format, tt.out, tt.bin, tt.n, got, err, tt.want, tt.ok)
		}
	}
	if got, _ := OutputPath(dir, "/x/app", 2); got != filepath.Join(dir, "app.prof") {
		t.Errorf("OutputPath(DIR, app) = %q, want DIR/app.prof (the LLVM profile's name)", got)
	}
}

func TestMatchBuildID(t *testing.T) {
	bin := callstackDir + "forky"
	f, err := binary.Open(bin, binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id := f.BuildIDHex()
	tests := []struct {
		name     string
		recorded map[string]string
		ok       bool
	}{
		{"same", map[string]string{"/rec/forky": id, "/lib/libc.so.6": "aa"}, true},
		{"other name only", map[string]string{"/rec/other": "bb"}, true},
		{"different build", map[string]string{"/rec/forky": "bb"}, false},
		{"one of two matches", map[string]string{"/rec/forky": "bb", "/rec2/forky": id}, true},
	}
	for _, tt := range tests {
		if err := matchBuildID(bin, id, tt.recorded); (err == nil) != tt.ok {
			t.Errorf("%s: matchBuildID = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

// TestNothingUsable: input that yields no usable sample fails with one line
// naming the file and what is missing, and writes nothing, on every path.
func TestNothingUsable(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := write("empty.script", "")
	garbage := write("garbage.script", "hello\nthis is not perf script\n\x00\x01\x02\n")
	libcOnly := write("libc.script", "app 1 1.0: 1 cpu-clock:\n\t 1234 getpid+0x4 (/lib/libc.so.6)\n")
	otherLBR := write("other.script", "PERF_RECORD_MMAP2 7/7: [0x400000(0x1000) @ 0 00:1d 1 0]: r-xp /bin/other\n 401310 0x401310/0x4012f0/P/-/-/22\n")
	stripped := filepath.Join(dir, "forky-stripped")
	if out, err := exec.Command("objcopy", "--strip-all", callstackDir+"forky", stripped).CombinedOutput(); err != nil {
		t.Skipf("objcopy: %v %s", err, out)
	}
	forky, script := callstackDir+"forky", callstackDir+"forky.pid-ip-sym-dso.script"
	tests := []struct {
		name   string
		opts   Options
		want   string
		noData bool // errors.Is(err, ErrNoSamples)
	}{
		{"empty", Options{PerfScript: empty, Binaries: []string{forky}}, empty + ": no usable samples: no samples in the input", true},
		{"garbage", Options{PerfScript: garbage, Binaries: []string{forky}}, garbage + ": no usable samples: no sample in 3 lines", true},
		{"empty, LBR flags", Options{PerfScript: empty, Binaries: []string{forky}, SkipSymbolization: true}, "no samples in the input", true},
		{"another program's call stacks", Options{PerfScript: libcOnly, Binaries: []string{forky}}, "1 samples, none in a mapping of forky", true},
		{"another program's LBR", Options{PerfScript: otherLBR, Binaries: []string{forky}, SkipSymbolization: true}, "none in a mapping of forky", true},
		{"empty unsymbolized profile", Options{UnsymbolizedProfile: empty, Binaries: []string{forky}}, "no usable samples", true},
		{"stripped binary", Options{PerfScript: script, Binaries: []string{stripped}}, stripped + ": no debug information", false},
		{"missing debug binary", Options{PerfScript: script, Binaries: []string{forky}, DebugBinary: "/nonexistent"}, "/nonexistent", false},
		{"no dso", Options{PerfScript: callstackDir + "forky.ip.script", Binaries: []string{forky}}, "forky.ip.script:2: call-chain frames carry no DSO", false},
		{"not perf.data", Options{PerfData: callstackDir + "README.md", Binaries: []string{forky}}, "not a perf.data file", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out.prof")
			tt.opts.Output = out
			err := Run(context.Background(), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %v, want one line containing %q", err, tt.want)
			}
			if tt.noData != errors.Is(err, ErrNoSamples) {
				t.Errorf("errors.Is(%v, ErrNoSamples) = %v", err, !tt.noData)
			}
			if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) > 0 {
				t.Errorf("%s left behind", entries[0].Name())
			}
		})
	}
}
