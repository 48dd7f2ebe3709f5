package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestNonPIEMatchesPerfReport: on real recordings of non-PIE programs whose
// hot code lies far above 0x800000 (C, and Go with 11 MiB of text), the
// flat per-function counts of profgen's pprof (go tool pprof -top
// -noinlines) equal perf report's per-symbol counts for the binary, PLT
// stubs as name@plt included, with --perfdata and with --perfscript.
func TestNonPIEMatchesPerfReport(t *testing.T) {
	needTools(t, "perf", "go")
	dir := filepath.Join(testutil.DataDir(t), "nonpie")
	for _, prog := range []string{"nonpie", "nonpiego"} {
		bin := filepath.Join(dir, prog)
		if _, err := os.Stat(bin + ".perf.data"); err != nil {
			t.Skipf("%s not recorded (make testdata)", prog)
		}
		report, err := os.ReadFile(filepath.Join(dir, prog+".report.txt"))
		if err != nil {
			t.Fatal(err)
		}
		// Go's assembly functions carry an ABI suffix in the ELF symbol
		// table (perf's name) but not in DWARF (Go's own profiles agree).
		want := countsByFunction(bytes.ReplaceAll(report, []byte(".abi0"), nil), `(?m)^\s*\S+%\s+(\d+)\s+\[\.\]\s+(\S+)\s*$`)
		if len(want) == 0 {
			t.Fatalf("%s: no counts in perf report output", prog)
		}
		for _, input := range [][]string{{"--perfdata", bin + ".perf.data"}, {"--perfscript", bin + ".script"}} {
			t.Run(prog+input[0], func(t *testing.T) {
				out := filepath.Join(t.TempDir(), prog+".pb.gz")
				args := append(input, "--binary", bin, "--format=pprof", "-o", out, "-q")
				if prog == "nonpiego" {
					// perf names a sample in a Go wrapper by the wrapper's
					// ELF symbol, and one in the kernel or in runtime.goexit
					// as such; profgen's pprof of a Go binary records what
					// Go's profiler does (wrappers folded into their
					// callers, kernel frames into the Go frame below them,
					// no goexit frame) unless told not to.
					args = append(args, "--no-fold-wrappers", "--no-fold-kernel", "--keep-goexit")
				}
				profgen(t, args...)
				top := runTool(t, "go", "tool", "pprof", "-top", "-noinlines", "-sample_index=samples", "-nodecount=100000", "-nodefraction=0", out)
				got := countsByFunction(top, `(?m)^\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s+(\S+)$`)
				for fn, n := range want {
					if got[fn] != n {
						t.Errorf("%s: pprof flat %d, perf report %d", fn, got[fn], n)
					}
				}
			})
		}
	}
}
