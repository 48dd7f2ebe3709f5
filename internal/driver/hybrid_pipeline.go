package driver

import (
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/unwind"
)

// The unwinding runs beside the parsing, as the LBR counting does (see
// pipeline.go): the parser's goroutine places hybrid samples in the
// binary's addresses and hands them over in batches; another goroutine
// unwinds them. Batches are recycled, so memory stays bounded.

type hybridSample struct {
	frames, branches int
	count            uint64
}

type hybridBatch struct {
	frames   []uint64
	branches []aggregate.Branch
	samples  []hybridSample
}

// hybridBatchSamples is smaller than batchSamples: a hybrid sample is a
// kilobyte (a call stack and 16-32 branches).
const hybridBatchSamples = 1024

func (b *hybridBatch) full() bool { return len(b.samples) >= hybridBatchSamples }

// unwindQueue feeds an Unwinder from another goroutine.
type unwindQueue struct {
	u    *unwind.Unwinder
	work chan *hybridBatch
	free chan *hybridBatch
	done chan struct{}
	cur  *hybridBatch
}

func newUnwindQueue(u *unwind.Unwinder) *unwindQueue {
	q := &unwindQueue{u: u, work: make(chan *hybridBatch, batchesInUse), free: make(chan *hybridBatch, batchesInUse), done: make(chan struct{})}
	for range batchesInUse {
		q.free <- &hybridBatch{}
	}
	q.cur = <-q.free
	go q.run()
	return q
}

func (q *unwindQueue) run() {
	defer close(q.done)
	for b := range q.work {
		f, br := 0, 0
		for _, s := range b.samples {
			q.u.Add(b.frames[f:f+s.frames], b.branches[br:br+s.branches], s.count)
			f += s.frames
			br += s.branches
		}
		b.frames, b.branches, b.samples = b.frames[:0], b.branches[:0], b.samples[:0]
		q.free <- b
	}
}

// add queues a sample; frames and branches are copied.
func (q *unwindQueue) add(frames []uint64, branches []aggregate.Branch, count uint64) {
	b := q.cur
	b.frames = append(b.frames, frames...)
	b.branches = append(b.branches, branches...)
	b.samples = append(b.samples, hybridSample{len(frames), len(branches), count})
	if b.full() {
		q.work <- b
		q.cur = <-q.free
	}
}

// finish unwinds what is queued and waits for the unwinding to end; it
// may be called more than once.
func (q *unwindQueue) finish() {
	if q.cur == nil {
		return
	}
	if len(q.cur.samples) > 0 {
		q.work <- q.cur
	}
	q.cur = nil
	close(q.work)
	<-q.done
}
