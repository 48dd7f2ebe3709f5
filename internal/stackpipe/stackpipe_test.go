package stackpipe

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const dataDir = "../../testdata/callstack/"

func TestOutputPath(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		out, bin string
		n        int
		want     string
		ok       bool
	}{
		{"a.prof", "/x/app", 1, "a.prof", true},
		{"p/%b.afdo", "/x/app", 2, "p/app.afdo", true},
		{dir, "/x/app", 2, filepath.Join(dir, "app.prof"), true},
		{dir, "/x/app", 1, filepath.Join(dir, "app.prof"), true},
		{"a.prof", "/x/app", 2, "", false},
	}
	for _, tt := range tests {
		got, err := OutputPath(tt.out, tt.bin, tt.n)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("OutputPath(%q, %q, %d) = %q, %v; want %q, ok=%v", tt.out, tt.bin, tt.n, got, err, tt.want, tt.ok)
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	libcOnly := filepath.Join(dir, "libc.script")
	os.WriteFile(libcOnly, []byte("app 1 1.0: 1 cpu-clock:\n\t 1234 getpid+0x4 (/lib/libc.so.6)\n"), 0o644)
	script := dataDir + "forky.pid-ip-sym-dso.script"
	bin := dataDir + "forky"
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no binary", Config{PerfScript: script, Output: out}, "no --binary"},
		{"no input", Config{Binaries: []string{bin}, Output: out}, "no input"},
		{"both inputs", Config{PerfScript: script, PerfData: "x", Binaries: []string{bin}, Output: out}, "either"},
		{"bad format", Config{PerfScript: script, Binaries: []string{bin}, Output: out, Format: "gcov"}, `format "gcov"`},
		{"not ELF", Config{PerfScript: script, Binaries: []string{script}, Output: out}, "binary " + script},
		{"no samples", Config{PerfScript: libcOnly, Binaries: []string{bin}, Output: out}, "no samples in"},
		{"no dso", Config{PerfScript: dataDir + "forky.ip.script", Binaries: []string{bin}, Output: out}, "forky.ip.script:2: call-chain frames carry no DSO"},
		{"no call chains", Config{PerfData: dataDir + "README.md", Binaries: []string{bin}, Output: out}, "not a perf.data file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Run(context.Background(), tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
			if _, statErr := os.Stat(out); statErr == nil {
				t.Error("output written despite the error")
			}
		})
	}
}

func TestMatchBuildID(t *testing.T) {
	bin := dataDir + "forky"
	id, err := fileBuildID(bin)
	if err != nil || len(id) != 40 {
		t.Fatalf("fileBuildID = %q, %v", id, err)
	}
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
		if err := matchBuildID(bin, tt.recorded); (err == nil) != tt.ok {
			t.Errorf("%s: matchBuildID = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}
