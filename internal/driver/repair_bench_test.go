package driver

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/fpskid"
)

// BenchmarkRepairGoCompile repairs the call stacks of the Go compiler's
// recording ($PROFGEN_TESTDATA/gocompile, make testdata): the stack repair
// alone (package fpskid), on a copy of the stacks scanned once, without
// the DWARF loading that shares the machine in a conversion.
func BenchmarkRepairGoCompile(b *testing.B) {
	dir := os.Getenv("PROFGEN_TESTDATA") + "/gocompile"
	if _, err := os.Stat(dir + "/perf.data"); err != nil {
		b.Skip("no $PROFGEN_TESTDATA/gocompile/perf.data")
	}
	opts := withDefaults(Options{Binaries: []string{dir + "/compile"}, PerfData: dir + "/perf.data", Format: "pprof", Output: os.DevNull, Quiet: true})
	bins, err := openBinaries(opts)
	if err != nil {
		b.Fatal(err)
	}
	defer bins.Close()
	res, err := scanOnce(context.Background(), opts, bins)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		counts := *res.stacks
		counts.Objects = slices.Clone(counts.Objects)
		counts.Stacks = slices.Clone(counts.Stacks)
		fpskid.Repair(&counts, bins.files)
	}
}
