package driver

import (
	"runtime"
	"slices"
	"sync"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/fpskid"
)

// prefetcher is the one place where work that the profile's generation
// will need is done ahead, on the other cores, while the input is
// scanned: reading DWARF then overlaps parsing instead of following it.
//   - LBR: the compilation units of the first batch's ranges (lbrRanges);
//   - hybrid samples: the units of the first sample's frames (hybridFrames);
//   - call stacks: their edges checked for frame-pointer skid while they
//     are read (stackChecks), and their frames' units once the scan ends
//     (stackFrames).
//
// What loads when does not change the output: the symbolizers are built
// once (binaries.symbolizer), units load in an order fixed by the input,
// and nothing symbolizes before wait returns.
type prefetcher struct {
	bins    *binaries
	symbols bool        // the output is symbolized
	llvm    bool        // ... into an LLVM profile (pprof reads no DWARF of LBR ranges)
	repair  bool        // call stacks will be repaired (fpskid)
	lbrOnce []sync.Once // by binary
	hybOnce sync.Once
	wg      sync.WaitGroup
}

func newPrefetcher(p *plan, bins *binaries) *prefetcher {
	return &prefetcher{
		bins:    bins,
		lbrOnce: make([]sync.Once, len(bins.files)),
		symbols: p.anyOutput((*output).symbolized),
		llvm:    p.anyOutput(func(o *output) bool { return o.format == formatLLVM }),
		repair:  !p.NoRepairSkid && p.anyOutput((*output).symbolized) && runtime.GOMAXPROCS(0) >= 2,
	}
}

// lbrRanges loads, once, the units of the ranges a has counted in binary
// bin.
func (p *prefetcher) lbrRanges(bin int, a *aggregate.Aggregator) {
	if !p.llvm || a == nil {
		return
	}
	p.lbrOnce[bin].Do(func() { p.units(bin, rangeStarts(a.Counters())) })
}

// hybridFrames loads, once, the units of a hybrid sample's frames (a
// binary of one large unit, as sqlite's amalgamation, is loaded whole).
func (p *prefetcher) hybridFrames(frames []uint64) {
	p.hybOnce.Do(func() { p.units(0, slices.Clone(frames)) })
}

// units loads binary bin's units of addrs.
func (p *prefetcher) units(bin int, addrs []uint64) {
	p.wg.Go(func() {
		if t, err := p.bins.symbolizer(bin); err == nil {
			t.Prefetch(addrs)
		}
	})
}

// stackChecks starts checking the edges of the call stacks while they are
// read (fpskid.Prechecker) when they will be repaired; nil otherwise.
// Closing bins ends it.
func (p *prefetcher) stackChecks() *fpskid.Prechecker {
	if !p.repair {
		return nil
	}
	c := fpskid.NewPrechecker(p.bins.files)
	p.bins.prechecks = append(p.bins.prechecks, c)
	return c
}

// stackFrames loads the units that hold the frames of counts, one
// goroutine per binary. The symbolizers are built first, here, as their
// users expect.
func (p *prefetcher) stackFrames(counts *aggregate.StackCounts) {
	if !p.symbols {
		return
	}
	for i, addrs := range counts.BinaryAddrs(len(p.bins.files)) {
		sym, err := p.bins.stackSymbolizer(i)
		if err != nil || len(addrs) == 0 {
			continue // writing the profile reports the error
		}
		p.wg.Go(func() { sym.Prefetch(addrs) })
	}
}

// wait waits for what was started.
func (p *prefetcher) wait() { p.wg.Wait() }

// rangeStarts are the distinct start addresses of c's ranges, sorted.
func rangeStarts(c *aggregate.Counters) []uint64 {
	addrs := make([]uint64, 0, len(c.Ranges))
	for r := range c.Ranges {
		addrs = append(addrs, r.Start)
	}
	slices.Sort(addrs)
	return slices.Compact(addrs)
}
