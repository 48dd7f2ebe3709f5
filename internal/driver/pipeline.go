package driver

import (
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/record"
)

// The LBR counting runs beside the parsing (a batchQueue with one
// consumer): the parser's goroutine places samples in their process's
// address space and hands them over in batches; another goroutine counts
// them (for BOLT output, as traces).

const (
	batchSamples = 4096
	batchesInUse = 4
)

type batchSample struct {
	n, nMispred  int // number of branches, of mispredict flags
	delta, count uint64
}

type batch struct {
	branches []record.Branch
	mispred  []bool // the flags of BOLT's traces, when they are counted
	samples  []batchSample
}

// add copies a sample's branches and mispredict flags into the batch. The first sample sizes
// the batch's branches for a batch of samples like it (and growth
// doubles): grown by append, a batch of 4096 32-entry stacks would be
// allocated five times over.
func (b *batch) add(br []record.Branch, mispred []bool, delta, count uint64) {
	if len(b.branches)+len(br) > cap(b.branches) {
		b.branches = slices.Grow(b.branches, max(len(b.branches), batchSamples*len(br)))
	}
	b.branches = append(b.branches, br...)
	b.mispred = append(b.mispred, mispred...)
	b.samples = append(b.samples, batchSample{len(br), len(mispred), delta, count})
}

func (b *batch) full() bool { return len(b.samples) >= batchSamples }

// countInto counts the batch's samples into agg and traces (those not
// nil), and empties it.
func (b *batch) countInto(agg *aggregate.Aggregator, traces *traceCounts) {
	off, moff := 0, 0
	for _, s := range b.samples {
		br := b.branches[off : off+s.n]
		if traces != nil {
			traces.add(br, b.mispred[moff:moff+s.nMispred], s.delta, s.count)
		}
		if agg != nil {
			agg.Add(br, s.delta, s.count)
		}
		off, moff = off+s.n, moff+s.nMispred
	}
	b.branches, b.mispred, b.samples = b.branches[:0], b.mispred[:0], b.samples[:0]
}

// counter counts LBR samples on another goroutine, batch by batch; once
// the first batch is counted, the prefetcher reads the DWARF of the
// ranges counted so far while the rest is parsed.
type counter struct {
	q   *batchQueue[batch]
	cur *batch
}

func newCounter(bin int, agg *aggregate.Aggregator, traces *traceCounts, pf *prefetcher) *counter {
	c := &counter{}
	c.q = newBatchQueue(1, batchesInUse, false, func() *batch { return &batch{} }, func(_ int, b *batch) {
		b.countInto(agg, traces)
		c.q.Recycle(b)
		pf.lbrRanges(bin, agg)
	})
	c.cur = c.q.Free()
	return c
}

// Add queues a sample; its branches and flags are copied.
func (c *counter) Add(br []record.Branch, mispred []bool, delta, count uint64) {
	c.cur.add(br, mispred, delta, count)
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
