package driver

import (
	"bytes"
	"os"
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
