package driver

import (
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/fpskid"
	"github.com/profgen/profgen/internal/generate"
)

// callCounts are the values of --call-counts ("" is the default).
var callCounts = map[string]generate.CallCounts{
	"": generate.CallCountsEstimate, "estimate": generate.CallCountsEstimate,
	"inclusive": generate.CallCountsInclusive, "none": generate.CallCountsNone,
	"executions": generate.CallCountsExecutions,
}

// stackCounting is how --call-counts, --body-counts and
// --no-zero-unsampled-lines make counts of call stacks.
func stackCounting(opts Options) generate.StackBinary {
	return generate.StackBinary{
		CallCounts:         callCounts[opts.CallCounts],
		BodyPerInstruction: opts.BodyCounts == "per-instruction",
		BodyByBlocks:       opts.BodyCounts == "blocks",
		BodyBlockMax:       opts.BodyCounts == "block-max" || opts.BodyCounts == "",
		ZeroUnsampled:      !opts.NoZeroUnsampledLines,
	}
}

// repairStacks gives back the frames perf's frame-pointer walk lost
// (package fpskid), unless --no-repair-skid. Meanwhile the DWARF units of
// the stacks' frames load on another core: the repair reads only code, and
// writing the profile waits for both.
func (res *result) repairStacks(opts Options, bins *binaries) {
	if opts.NoRepairSkid || opts.SkipSymbolization || res.stacks.Stats.Used == 0 {
		res.precheck.Close()
		return
	}
	loaded := prefetchFrames(opts, bins, res.stacks)
	res.skid = fpskid.Repair(res.stacks, bins.files, res.precheck)
	loaded.Wait()
}

// newPrechecker starts checking the edges of the call stacks while they
// are read (fpskid.Prechecker), on the other core, when they will be
// repaired; nil otherwise. Closing bins ends it.
func newPrechecker(opts Options, bins *binaries) *fpskid.Prechecker {
	if opts.NoRepairSkid || opts.SkipSymbolization || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	p := fpskid.NewPrechecker(bins.files)
	bins.prechecks = append(bins.prechecks, p)
	return p
}

// precheckBatch is the number of new stacks handed to the checks at a time.
const precheckBatch = 256

// prefetchFrames starts loading the DWARF units that hold the frames of
// counts, one goroutine per binary; the returned group ends when they are
// loaded. The symbolizers are built first, here, as their users expect.
// Units load in an order fixed by the input, and nothing else symbolizes
// until the group ends, so what loads when does not change the output.
func prefetchFrames(opts Options, bins *binaries, counts *aggregate.StackCounts) *sync.WaitGroup {
	var wg sync.WaitGroup
	if opts.SkipSymbolization {
		return &wg
	}
	for i, addrs := range counts.BinaryAddrs(len(bins.files)) {
		sym, err := bins.stackSymbolizer(i)
		if err != nil || len(addrs) == 0 {
			continue // writing the profile reports the error
		}
		wg.Go(func() { sym.Prefetch(addrs) })
	}
	return &wg
}

func (res *result) printUnwind(w io.Writer) {
	u := res.skid
	if u.Repaired == 0 {
		return
	}
	fmt.Fprintf(w, "profgen: %d samples had frames missing from their call chain (frame-pointer skid, tail calls); "+
		"inferred from the code, %d of them without the call site (--no-repair-skid keeps them as recorded)\n",
		u.Repaired, u.SiteUnknown)
}
