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
// naming the file and what is missing, and writes nothing, on every path
// but branch stacks outside the binary (TestBranchStacksOutsideTheBinary).
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

// TestBranchStacksOutsideTheBinary: branch stacks none of whose branches
// is in the binary (another program's, with MMAP events between the
// samples as in LLVM's mmapEvent test) give llvm-profgen's empty profile
// and its warnings, and profgen's warning saying why.
func TestBranchStacksOutsideTheBinary(t *testing.T) {
	script := filepath.Join(t.TempDir(), "other.script")
	text := "PERF_RECORD_MMAP2 7/7: [0x400000(0x1000) @ 0 00:1d 1 0]: r-xp /bin/other\n" +
		" 4006b1 0x4006b1/0x4006a0/P/-/-/0 0x4006b1/0x4006a0/P/-/-/0\n" +
		"PERF_RECORD_MMAP2 7/7: [0x7f2505156000(0x202000) @ 0 00:1d 2 0]: r-xp /lib/helper.so\n" +
		" 7f2505156811 0x7f2505156811/0x7f25051569f0/P/-/-/0\n"
	if err := os.WriteFile(script, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		format string
		skip   bool
		want   string // the output; "" for any
	}{
		{"text", "text", false, "\x00"},
		{"unsymbolized", "", true, "0\n0\n"},
		{"extbinary", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			out := filepath.Join(t.TempDir(), "out")
			err := Run(context.Background(), Options{PerfScript: script, Binaries: []string{"testdata/t.bin"}, Format: tt.format,
				SkipSymbolization: tt.skip, Output: out, Stderr: &stderr})
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(out)
			if err != nil || tt.want == "\x00" && len(got) != 0 || tt.want != "" && tt.want != "\x00" && string(got) != tt.want {
				t.Errorf("output %q (%v), want %q", got, err, tt.want)
			}
			for _, line := range []string{"profgen: warning: " + script + ": the profile is empty: 2 samples, none in a mapping of t.bin", "warning: No samples in perf script!"} {
				if !strings.Contains(stderr.String(), line) {
					t.Errorf("no line %q in\n%s", line, stderr.String())
				}
			}
		})
	}
}
