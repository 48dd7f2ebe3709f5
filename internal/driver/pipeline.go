package driver

import (
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/record"
)

// The LBR counting runs beside the parsing (a batchQueue with one
// consumer): the parser's goroutine places samples in their process's
// address space and hands them over in batches; another goroutine counts
// them.

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

// countInto counts the batch's samples and empties it.
func (b *batch) countInto(agg *aggregate.Aggregator) {
	off := 0
	for _, s := range b.samples {
		agg.Add(b.branches[off:off+s.n], s.delta, s.count)
		off += s.n
	}
	b.branches, b.samples = b.branches[:0], b.samples[:0]
}

// counter counts LBR samples on another goroutine, batch by batch; once
// the first batch is counted, the prefetcher reads the DWARF of the
// ranges counted so far while the rest is parsed.
type counter struct {
	q   *batchQueue[batch]
	cur *batch
}

func newCounter(agg *aggregate.Aggregator, pf *prefetcher) *counter {
	c := &counter{}
	c.q = newBatchQueue(1, batchesInUse, false, func() *batch { return &batch{} }, func(_ int, b *batch) {
		b.countInto(agg)
		c.q.Recycle(b)
		pf.lbrRanges(agg)
	})
	c.cur = c.q.Free()
	return c
}

// Add queues a sample; its branches are copied.
func (c *counter) Add(br []record.Branch, delta, count uint64) {
	c.cur.add(br, delta, count)
	if c.cur.full() {
		c.q.Send(c.cur)
		c.cur = c.q.Free()
	}
}

// Finish counts what is queued and waits for the counting to end.
func (c *counter) Finish() {
	if len(c.cur.samples) > 0 {
		c.q.Send(c.cur)
	}
	c.q.Close()
}
