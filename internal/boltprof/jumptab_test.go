package boltprof

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/binary"
)

// TestJumpTableFdata builds testdata/programs/jumptab.c with
// build-jumptab.sh (clang-22 -Wl,--emit-relocs; PIE with PIC jump tables,
// non-PIE with absolute ones), records each with tools/lbrgen under
// valgrind (exact LBR: one process, and four at four bases) and compares
// profgen's fdata with perf2bolt-22's as sets of lines:
//   - "lbr": of the recorded branch stacks, perf2bolt reading the perf.data;
//   - "no-jumps-to-next": of the same stacks without their jumps to the
//     next instruction (lbrgen's traces before it recorded those, or a
//     filtered LBR), so that traces run through `jmp *%rax` into the case
//     right after it; perf2bolt reads them as pre-aggregated T records,
//     which carry no mispredictions;
//   - "preagg": perf2bolt's of profgen's pre-aggregated file (WritePreagg)
//     against perf2bolt's of the perf.data.
//
// jumptab's code without a function symbol of its own (a stub in a section
// of its own, a global and a local label without a type) calls leaf:
// perf2bolt names that code as BOLT's symbol walk does.
func TestJumpTableFdata(t *testing.T) {
	root, dir := traceSetup(t)
	run(t, root, filepath.Join(root, "testdata/programs/build-jumptab.sh"), dir)
	lbrgen := buildLbrgen(t, root, dir)
	for _, prog := range []string{"jumptab", "jumptab-nopie"} {
		binPath := filepath.Join(dir, prog)
		run(t, dir, lbrgen, "-binary", binPath, "-seed", "5", "-flags", "typed", "-period", "700", "-perfdata",
			"-single", filepath.Join(dir, prog+".script"), "-multi", filepath.Join(dir, prog+"-multi"), "-procs", "4", "--", "800")
		for _, rec := range []string{prog + ".perf.data", prog + "-multi.perf.data"} {
			perfData := filepath.Join(dir, rec)
			t.Run(rec+"/lbr", func(t *testing.T) {
				bin, fs := openBinary(t, binPath)
				compareTraces(t, BuildFdata(bin, fs, tracesOf(t, bin, perfData)), binPath, "-p", perfData)
			})
			t.Run(rec+"/no-jumps-to-next", func(t *testing.T) { compareSpanning(t, binPath, perfData) })
			t.Run(rec+"/preagg", func(t *testing.T) { comparePreagg(t, binPath, perfData) })
		}
	}
}

// buildLbrgen builds tools/lbrgen into dir.
func buildLbrgen(t *testing.T, root, dir string) string {
	t.Helper()
	lbrgen := filepath.Join(dir, "lbrgen")
	run(t, root, "go", "build", "-o", lbrgen, "./tools/lbrgen")
	return lbrgen
}

// compareTraces compares fdata and its trace diagnostics with perf2bolt's
// run with args.
func compareTraces(t *testing.T, fd *Fdata, binPath string, args ...string) {
	t.Helper()
	want, diag := perf2boltTraces(t, binPath, args...)
	compareLines(t, fdataLines(t, fd), want)
	got := traceDiagnostics{fd.Invalid, fd.OutOfRange}
	t.Logf("traces: %d invalid, %d out of range", got.invalid, got.outOfRange)
	if got != diag {
		t.Errorf("traces (invalid, out of range) = %v, perf2bolt's %v", got, diag)
	}
}

// compareSpanning compares the fdata of perfData's branch stacks without
// their jumps to the next instruction with perf2bolt's of the same traces.
func compareSpanning(t *testing.T, binPath, perfData string) {
	bin, fs := openBinary(t, binPath)
	ts := tracesKeeping(t, bin, perfData, func(from, to uint64) bool { return !toNextInst(bin, from, to) })
	fd := BuildFdata(bin, fs, ts)
	for e, c := range fd.Edges {
		fd.Edges[e] = EdgeCount{Branches: c.Branches}
	}
	preagg := filepath.Join(t.TempDir(), "traces.preagg")
	if err := os.WriteFile(preagg, traceRecords(ts), 0o644); err != nil {
		t.Fatal(err)
	}
	compareTraces(t, fd, binPath, "--pa", "-p", preagg)
}

// toNextInst reports a branch to the instruction right after it.
func toNextInst(bin *binary.File, from, to uint64) bool {
	in, ok := bin.Inst(from)
	return ok && in.End() == to
}

// traceRecords writes traces as pre-aggregated `T branch from to count`
// records (hex addresses; a trace without fall-through ends at
// ffffffffffffffff).
func traceRecords(ts Traces) []byte {
	var b bytes.Buffer
	for tr, c := range ts {
		fmt.Fprintf(&b, "T %x %x %x %d\n", tr.Branch, tr.From, tr.To, c.Taken)
	}
	return b.Bytes()
}
