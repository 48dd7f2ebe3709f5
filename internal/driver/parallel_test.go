package driver

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/perfscript"
)

// TestParallelSameOutput: the output files and the summary are the same
// for -j 1, 2 and 5, from a file or standard input, with chunks small
// enough that every worker gets many; hybrid inputs among them (scanned
// in order by the feeder, but by the workers for BOLT's formats, which
// read their branch stacks alone).
func TestParallelSameOutput(t *testing.T) {
	defer func(n int) { chunkSize = n }(chunkSize)
	chunkSize = 64 << 10
	forky := "../../testdata/callstack/"
	type input struct {
		name, script string
		bins         []string
		formats      []string
	}
	inputs := []input{
		{"forky default", forky + "forky.default-tasks.script", []string{forky + "forky"}, []string{"pprof", "text"}},
		{"forky pid-ip-sym-dso", forky + "forky.pid-ip-sym-dso-tasks.script", []string{forky + "forky"}, []string{"pprof", "extbinary"}},
	}
	if dir := os.Getenv("PROFGEN_TESTDATA"); dir != "" {
		for _, s := range []string{"single", "multi", "fork", "reuse", "hybrid", "hybrid-multi"} {
			lbr := filepath.Join(dir, "lbr", "wordfreq")
			inputs = append(inputs, input{"wordfreq " + s, filepath.Join(lbr, s+".script"), []string{filepath.Join(lbr, "binary")}, []string{"text", "skip", "bolt", "bolt-preagg"}})
		}
		inputs = append(inputs, input{"big", filepath.Join(dir, "callstack", "big.script"), []string{filepath.Join(dir, "callstack", "forky")}, []string{"pprof", "bolt"}})
	}
	for _, in := range inputs {
		for _, format := range in.formats {
			var want []byte
			var wantErr string
			for _, jobs := range []int{1, 2, 5} {
				out := filepath.Join(t.TempDir(), "out")
				var stderr bytes.Buffer
				for _, stdin := range []bool{false, true} {
					opts := Options{PerfScript: in.script, Binaries: in.bins, Output: out, Format: format, Jobs: jobs, Stderr: &stderr}
					if stdin { // read as a stream, in chunks all the same
						f, err := os.Open(in.script)
						if err != nil {
							t.Fatal(err)
						}
						defer f.Close()
						opts.PerfScript, opts.Stdin = "-", f
					}
					if format == "skip" {
						opts.Format, opts.SkipSymbolization = "", true
					}
					stderr.Reset()
					if err := Run(context.Background(), opts); err != nil {
						t.Fatalf("%s %s -j %d: %v", in.name, format, jobs, err)
					}
					got, _ := os.ReadFile(out)
					if jobs == 1 && !stdin {
						want, wantErr = got, strings.ReplaceAll(stderr.String(), in.script, "<stdin>")
						continue
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s %s: -j %d (stdin %v) output differs from -j 1", in.name, format, jobs, stdin)
					}
					if got := strings.ReplaceAll(stderr.String(), in.script, "<stdin>"); got != wantErr {
						t.Errorf("%s %s: -j %d (stdin %v) summary differs:\n%s\nwant\n%s", in.name, format, jobs, stdin, got, wantErr)
					}
				}
			}
		}
	}
}

// TestInputShrinks: a perf script file that gets shorter while it is read
// (written again by a shell's >) fails with one error naming it, where
// the mapped pages past its new end fault, and no output is written.
func TestInputShrinks(t *testing.T) {
	defer func(n int) { chunkSize = n }(chunkSize)
	chunkSize = 16 << 10
	data, err := os.ReadFile("../../testdata/callstack/forky.default-tasks.script")
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "perf.script")
	if err := os.WriteFile(script, data, 0o644); err != nil {
		t.Fatal(err)
	}
	afterMapping = func(f *os.File) {
		if err := os.Truncate(f.Name(), 4096); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { afterMapping = nil }()
	out := filepath.Join(t.TempDir(), "out")
	opts := Options{PerfScript: script, Binaries: []string{"../../testdata/callstack/forky"}, Output: out, Format: "pprof", Jobs: 2}
	err = Run(context.Background(), opts)
	if !errors.Is(err, errInputShrank) || !strings.HasPrefix(err.Error(), script+": ") {
		t.Errorf("got %v, want %s: %v", err, script, errInputShrank)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written", out)
	}
}

// TestDecideFindsBranchStacks: the feeder decides how branch stacks are
// used at the first chunk that holds one in any form the parser takes
// (perfscript.HoldsBranchStack), as one pass does; a call-chain chunk with
// "/0x" in a path is not one.
func TestDecideFindsBranchStacks(t *testing.T) {
	tests := []struct {
		name, chunk      string
		decided, inOrder bool
	}{
		{"LBR sample", " 401139 0x40111f/0x401139/P/-/-/0\n", true, false},
		{"upper-case 0X", " 401139 0X40111F/0X401139/P/-/-/0\n", true, false},
		{"bad first entry", " 401139 0x40111f/zz\n", true, false},
		{"hybrid, bad first entry", "app 7/7 1.5: cycles:\n\t  401139 main (/tmp/app)\n 0x40111f/-\n\n", true, true},
		{"hybrid", "app 7/7 1.5: cycles:\n\t  401139 main (/tmp/app)\n 0x40111f/0x401139/P/-/-/0\n\n", true, true},
		{"call chain, 0x in a path", "app 7/7 1.5: cycles:\n\t  401139 main (/tmp/0x10/app)\n\n", false, false},
	}
	for _, tt := range tests {
		c := &chunkScan{p: &plan{}, in: &input{name: "t"}, hybrid: &hybridPath{}}
		c.decide(perfscript.Chunk{Data: []byte(tt.chunk), FirstLine: 1}, false)
		if c.decided != tt.decided || c.inOrder != tt.inOrder {
			t.Errorf("%s: decided %v, in order %v; want %v, %v", tt.name, c.decided, c.inOrder, tt.decided, tt.inOrder)
		}
	}
}
