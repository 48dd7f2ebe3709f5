package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestParallelSameOutput: the output files and the summary are the same
// for -j 1, 2 and 5, with chunks small enough that every worker gets many.
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
			inputs = append(inputs, input{"wordfreq " + s, filepath.Join(lbr, s+".script"), []string{filepath.Join(lbr, "binary")}, []string{"text", "skip"}})
		}
		inputs = append(inputs, input{"big", filepath.Join(dir, "callstack", "big.script"), []string{filepath.Join(dir, "callstack", "forky")}, []string{"pprof"}})
	}
	for _, in := range inputs {
		for _, format := range in.formats {
			var want []byte
			var wantErr string
			for _, jobs := range []int{1, 2, 5} {
				out := filepath.Join(t.TempDir(), "out")
				var stderr bytes.Buffer
				opts := Options{PerfScript: in.script, Binaries: in.bins, Output: out, Format: format, Jobs: jobs, Stderr: &stderr}
				if format == "skip" {
					opts.Format, opts.SkipSymbolization = "", true
				}
				if err := Run(context.Background(), opts); err != nil {
					t.Fatalf("%s %s -j %d: %v", in.name, format, jobs, err)
				}
				got, _ := os.ReadFile(out)
				if jobs == 1 {
					want, wantErr = got, stderr.String()
					continue
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s %s: -j %d output differs from -j 1", in.name, format, jobs)
				}
				if stderr.String() != wantErr {
					t.Errorf("%s %s: -j %d summary differs:\n%s\nwant\n%s", in.name, format, jobs, stderr.String(), wantErr)
				}
			}
		}
	}
}
