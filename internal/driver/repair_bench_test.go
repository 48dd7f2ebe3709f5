package driver

import (
	"context"
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/fpskid"
)

// BenchmarkRepairGoCompile repairs the call stacks of the Go compiler's
// recording (openGoCompile): the stack repair alone (package fpskid), on
// a copy of the stacks scanned once, without the symbolization that
// shares the machine in a conversion.
func BenchmarkRepairGoCompile(b *testing.B) {
	opts, bins := openGoCompile(b)
	res, err := scanInput(context.Background(), opts, bins)
	if err != nil {
		b.Fatal(err)
	}
	res.precheck.Close() // each run checks every edge itself
	b.ReportAllocs()
	for b.Loop() {
		counts := *res.stacks
		counts.Objects = slices.Clone(counts.Objects)
		counts.Stacks = slices.Clone(counts.Stacks)
		fpskid.Repair(&counts, bins.files, nil)
	}
}
