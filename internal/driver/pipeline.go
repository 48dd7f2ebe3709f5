package driver

import (
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/record"
)

// The aggregation runs beside the parsing: the parser's goroutine places
// samples in their process's address space and hands them over in batches;
// another goroutine counts them. Batches are recycled, so memory stays
// bounded.

const (
	batchSamples = 4096
	batchesInUse = 4
)

type batchSample struct {
	n            int // number of branches
	delta, count uint64
}

type batch struct {
	branches []record.Branch
	samples  []batchSample
}

// add copies a sample's branches into the batch. The first sample sizes
// the batch's branches for a batch of samples like it (and growth
// doubles): grown by append, a batch of 4096 32-entry stacks would be
// allocated five times over.
func (b *batch) add(br []record.Branch, delta, count uint64) {
	if len(b.branches)+len(br) > cap(b.branches) {
		b.branches = slices.Grow(b.branches, max(len(b.branches), batchSamples*len(br)))
	}
	b.branches = append(b.branches, br...)
	b.samples = append(b.samples, batchSample{len(br), delta, count})
}

func (b *batch) full() bool { return len(b.samples) >= batchSamples }

// counter is the counting side of the pipeline.
type counter struct {
	agg  *aggregate.Aggregator
	work chan *batch
	free chan *batch
	done chan struct{}
	cur  *batch
	// prefetch, once the first batch is counted, reads the DWARF of the
	// ranges counted so far while the rest is parsed.
	prefetch *symbolPrefetch
}

func newCounter(agg *aggregate.Aggregator, prefetch *symbolPrefetch) *counter {
	c := &counter{agg: agg, work: make(chan *batch, batchesInUse), free: make(chan *batch, batchesInUse), done: make(chan struct{}),
		prefetch: prefetch}
	for range batchesInUse {
		c.free <- &batch{}
	}
	c.cur = <-c.free
	go c.run()
	return c
}

func (c *counter) run() {
	defer close(c.done)
	for b := range c.work {
		off := 0
		for _, s := range b.samples {
			c.agg.Add(b.branches[off:off+s.n], s.delta, s.count)
			off += s.n
		}
		b.branches, b.samples = b.branches[:0], b.samples[:0]
		c.free <- b
		c.prefetch.start(c.agg)
	}
}

// Add queues a sample; its branches are copied.
func (c *counter) Add(br []record.Branch, delta, count uint64) {
	c.cur.add(br, delta, count)
	if c.cur.full() {
		c.work <- c.cur
		c.cur = <-c.free
	}
}

// Finish counts what is queued and waits for the counting to end, and
// for the prefetch.
func (c *counter) Finish() {
	if len(c.cur.samples) > 0 {
		c.work <- c.cur
	}
	close(c.work)
	<-c.done
	c.prefetch.wait()
}
