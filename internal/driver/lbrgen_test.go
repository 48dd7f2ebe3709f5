package driver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The LBR traces made by scripts/testdata.d/20-lbr.sh (tools/lbrgen):
// $PROFGEN_TESTDATA/lbr/<prog>/binary, single.script (one process, no PID
// column), and for each of multi, fork, reuse: <name>.script (PID column,
// events) plus <name>.<pid>[-<n>].script per process lifetime.
func lbrPrograms(t *testing.T) []string {
	t.Helper()
	root := os.Getenv("PROFGEN_TESTDATA")
	if root == "" {
		t.Skip("PROFGEN_TESTDATA not set; run make testdata")
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "lbr", "*", "single.script"))
	if len(dirs) == 0 {
		t.Skip("no LBR traces under $PROFGEN_TESTDATA/lbr")
	}
	for i, d := range dirs {
		dirs[i] = filepath.Dir(d)
	}
	return dirs
}

// TestLBRSingleProcessMatchesLLVM: one process, byte-identical to
// llvm-profgen-19 --skip-symbolization.
func TestLBRSingleProcessMatchesLLVM(t *testing.T) {
	for _, dir := range lbrPrograms(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			binPath := filepath.Join(dir, "binary")
			bin := binPath
			script := filepath.Join(dir, "single.script")
			got, summary := profgen(t, bin, script, nil)
			want := llvmProfgen(t, binPath, script)
			if !bytes.Equal(got, want) {
				t.Errorf("differs from llvm-profgen-19 (%d vs %d bytes)\n%s", len(got), len(want), summary)
			}
		})
	}
}

// TestLBRProcessesEqualSum: several processes (concurrent, forked, a
// recycled PID) in one PID-column script give the sum of llvm-profgen-19's
// outputs on each process alone.
func TestLBRProcessesEqualSum(t *testing.T) {
	for _, dir := range lbrPrograms(t) {
		for _, kind := range []string{"multi", "fork", "reuse"} {
			combined := filepath.Join(dir, kind+".script")
			each, _ := filepath.Glob(filepath.Join(dir, kind+".*.script"))
			if _, err := os.Stat(combined); err != nil || len(each) == 0 {
				continue
			}
			t.Run(filepath.Base(dir)+"/"+kind, func(t *testing.T) {
				binPath := filepath.Join(dir, "binary")
				bin := binPath
				got, summary := profgen(t, bin, combined, nil)
				want := sumLLVM(t, bin, each)
				if !bytes.Equal(got, want) {
					t.Errorf("differs from the sum of llvm-profgen-19 on %d processes (%d vs %d bytes)\n%s", len(each), len(got), len(want), summary)
				}
			})
		}
	}
}

// TestLBRPerfDataEqualsPerfScript: lbrgen's perf.data of every layout
// (one process, 4 processes at different bases, forks, PID reuse, hybrid
// samples), read through --perfdata, gives the bytes --perfscript gives on
// the same samples, unsymbolized and as an LLVM text profile.
func TestLBRPerfDataEqualsPerfScript(t *testing.T) {
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skip("perf not installed")
	}
	for _, dir := range lbrPrograms(t) {
		for _, kind := range []string{"single", "multi", "fork", "reuse", "hybrid", "hybrid-multi"} {
			data := filepath.Join(dir, kind+".perf.data")
			if _, err := os.Stat(data); err != nil {
				continue
			}
			t.Run(filepath.Base(dir)+"/"+kind, func(t *testing.T) {
				bin := filepath.Join(dir, "binary")
				for _, skip := range []bool{true, false} {
					want := convert(t, Options{PerfScript: filepath.Join(dir, kind+".script"), Binaries: []string{bin}, SkipSymbolization: skip, Format: "text"})
					got := convert(t, Options{PerfData: data, Binaries: []string{bin}, SkipSymbolization: skip, Format: "text"})
					if !bytes.Equal(got, want) {
						t.Errorf("skip-symbolization=%v: --perfdata differs from --perfscript (%d vs %d bytes)", skip, len(got), len(want))
					}
				}
			})
		}
	}
}

// convert runs the pipeline and returns the output.
func convert(t *testing.T, opts Options) []byte {
	t.Helper()
	opts.Output = filepath.Join(t.TempDir(), "out")
	opts.Quiet = true
	if err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(opts.Output)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
