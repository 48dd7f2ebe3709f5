package driver

import (
	"slices"
	"sync"

	"github.com/profgen/profgen/internal/aggregate"
)

// symbolPrefetch builds the primary binary's symbolizer, and loads the
// compilation units the first chunk's ranges touch, while the rest of
// the input is scanned: reading DWARF then overlaps parsing instead of
// following it. The scan may ask for the symbolizer meanwhile (a hybrid
// sample): binaries.symbolizer builds it once, the second caller waiting
// for the first. The scan waits for the prefetch before it returns.
type symbolPrefetch struct {
	bins *binaries
	once sync.Once
	done chan struct{}
}

// newSymbolPrefetch returns nil when the output needs no symbolizer.
func newSymbolPrefetch(opts Options, bins *binaries) *symbolPrefetch {
	if opts.SkipSymbolization || opts.Format == "pprof" {
		return nil
	}
	return &symbolPrefetch{bins: bins, done: make(chan struct{})}
}

// start begins the prefetch, once, for the ranges a has counted (its
// pending samples are counted first).
func (p *symbolPrefetch) start(a *aggregate.Aggregator) {
	if p == nil {
		return
	}
	p.once.Do(func() {
		addrs := rangeStarts(a.Counters())
		go func() {
			defer close(p.done)
			if t, err := p.bins.symbolizer(0); err == nil {
				t.Prefetch(addrs)
			}
		}()
	})
}

// wait waits for a prefetch that was started.
func (p *symbolPrefetch) wait() {
	if p == nil {
		return
	}
	started := true
	p.once.Do(func() { started = false })
	if started {
		<-p.done
	}
}

// rangeStarts are the distinct start addresses of c's ranges, sorted.
func rangeStarts(c *aggregate.Counters) []uint64 {
	addrs := make([]uint64, 0, len(c.Ranges))
	for r := range c.Ranges {
		addrs = append(addrs, r.Start)
	}
	slices.Sort(addrs)
	return slices.Compact(addrs)
}
