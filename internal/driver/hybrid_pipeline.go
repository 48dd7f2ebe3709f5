package driver

import (
	"hash/maphash"
	"runtime"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/csprofile"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/unwind"
)

// The unwinding runs beside the parsing, as the LBR counting does (a
// batchQueue, fanout.go), on several goroutines: the parser's goroutine places
// hybrid samples in the binary's addresses and hands them over in
// batches, in turn to each unwinder; each has its own frame trie, symbol
// cache and contexts, merged at the end (sums, so the result does not
// depend on how many there are). Batches are recycled, so memory stays
// bounded.

type hybridSample struct {
	frames, branches int
	count            uint64
}

type hybridBatch struct {
	frames   []uint64
	branches []record.Branch
	samples  []hybridSample
}

// hybridBatchSamples is smaller than batchSamples: a hybrid sample is a
// kilobyte (a call stack and 16-32 branches).
const hybridBatchSamples = 1024

// maxUnwinders bounds the unwinding goroutines: each keeps its own copy
// of the counters of the contexts it sees.
const maxUnwinders = 4

func (b *hybridBatch) full() bool { return len(b.samples) >= hybridBatchSamples }

// unwinder is one unwinding goroutine's state: its contexts are named by
// keys (symbolized frames) or addrs (call-site addresses, for binaries
// with pseudo probes).
type unwinder struct {
	u     *unwind.Unwinder
	syms  *csprofile.Symbols
	keys  *csprofile.FrameContexts
	addrs *unwind.AddressContexts
}

// unwindQueue feeds the unwinders: a batchQueue, one consumer per
// unwinder, turn by turn.
type unwindQueue struct {
	ws  []*unwinder
	q   *batchQueue[hybridBatch]
	cur *hybridBatch
}

// newUnwindQueue starts the unwinders; newUnwinder makes the state of one.
func newUnwindQueue(newUnwinder func() *unwinder) *unwindQueue {
	n := max(1, min(runtime.GOMAXPROCS(0), maxUnwinders)) // parsing takes a fraction of what unwinding does
	q := &unwindQueue{}
	for range n {
		q.ws = append(q.ws, newUnwinder())
	}
	q.q = newBatchQueue(n, 2*n+2, false, func() *hybridBatch { return &hybridBatch{} }, q.unwind)
	q.cur = q.q.Free()
	return q
}

// unwind is unwinder i's work on a batch.
func (q *unwindQueue) unwind(i int, b *hybridBatch) {
	u := q.ws[i].u
	f, br := 0, 0
	for _, s := range b.samples {
		u.Add(b.frames[f:f+s.frames], b.branches[br:br+s.branches], s.count)
		f += s.frames
		br += s.branches
	}
	b.frames, b.branches, b.samples = b.frames[:0], b.branches[:0], b.samples[:0]
	q.q.Recycle(b)
}

// add queues a sample; frames and branches are copied.
func (q *unwindQueue) add(frames []uint64, branches []record.Branch, count uint64) {
	b := q.cur
	b.frames = append(b.frames, frames...)
	b.branches = append(b.branches, branches...)
	b.samples = append(b.samples, hybridSample{len(frames), len(branches), count})
	if b.full() {
		q.q.Send(b)
		q.cur = q.q.Free()
	}
}

// finish unwinds what is queued and waits for the unwinding to end; it
// may be called more than once.
func (q *unwindQueue) finish() {
	if q.cur == nil {
		return
	}
	if len(q.cur.samples) > 0 {
		q.q.Send(q.cur)
	}
	q.cur = nil
	q.q.Close()
}

// stats sums the unwinders' statistics.
func (q *unwindQueue) stats() (s unwind.Stats, frames int) {
	for _, w := range q.ws {
		s.Add(w.u.Stats)
		frames += w.u.Frames()
	}
	return s, frames
}

// distinct merges the unwinders' distinct samples.
func (q *unwindQueue) distinct() *unwind.Distinct {
	all := unwind.NewDistinct(maphash.Seed{})
	for _, w := range q.ws {
		if w.u.Distinct != nil {
			all.Merge(w.u.Distinct)
		}
	}
	return all
}

// pairs merges the unwinders' counts of consecutive branch pairs.
func (q *unwindQueue) pairs() (*aggregate.Counters, uint64) {
	c := &aggregate.Counters{Ranges: map[aggregate.Range]uint64{}}
	var total uint64
	for _, w := range q.ws {
		for r, n := range w.u.Pairs {
			c.Ranges[r] += n
			total += n
		}
	}
	return c, total
}

// externalCallers reports whether a frame of any unwinder ran under an
// external one.
func (q *unwindQueue) externalCallers() bool {
	for _, w := range q.ws {
		if w.u.ExternalCallers() {
			return true
		}
	}
	return false
}

// contexts merges the unwinders' contexts.
func (q *unwindQueue) contexts() []csprofile.Context {
	keys := make([]*csprofile.FrameContexts, len(q.ws))
	counters := make([][]*aggregate.Counters, len(q.ws))
	for i, w := range q.ws {
		keys[i], counters[i] = w.keys, w.u.Counters()
	}
	return csprofile.MergeContexts(keys, counters)
}

// addressContexts merges the unwinders' address contexts.
func (q *unwindQueue) addressContexts() []unwind.Context {
	keys := make([]*unwind.AddressContexts, len(q.ws))
	counters := make([][]*aggregate.Counters, len(q.ws))
	for i, w := range q.ws {
		keys[i], counters[i] = w.addrs, w.u.Counters()
	}
	return unwind.MergeAddressContexts(keys, counters)
}
