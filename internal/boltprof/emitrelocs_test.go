package boltprof

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestFdataEmitRelocs builds wordfreq with clang-22 -Wl,--emit-relocs (what
// BOLT wants of a binary it reorders), records it with tools/lbrgen under
// valgrind (exact LBR, perf.data) and compares the fdata with perf2bolt-22's.
func TestFdataEmitRelocs(t *testing.T) {
	root, dir := traceSetup(t)
	prog := filepath.Join(dir, "wordfreq")
	run(t, root, "clang-22", "-O2", "-g0", "-Wl,--emit-relocs", "-o", prog, filepath.Join(root, "testdata/programs/wordfreq.c"))
	lbrgen := buildLbrgen(t, root, dir)
	script := filepath.Join(dir, "single.script")
	run(t, dir, lbrgen, "-binary", prog, "-seed", "3", "-flags", "typed", "-period", "1000", "-perfdata", "-single", script, "--", "5000")
	compareWithPerf2bolt(t, prog, filepath.Join(dir, "single.perf.data"))
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
}

// traceSetup is what a test that builds and traces a program needs: it
// skips in -short mode or without clang-22, valgrind, go, perf2bolt-22 and
// perf, and returns the module root and a scratch directory.
func traceSetup(t *testing.T) (root, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and traces a program")
	}
	testutil.Tools(t, "clang-22", "valgrind", "go", perf2bolt, "perf")
	root, err := testutil.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root, t.TempDir()
}
