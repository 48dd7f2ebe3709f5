package driver

import "sync"

// batchQueue is the driver's one batching primitive: the scan takes a free
// batch, fills it and sends it to one of n consuming goroutines, and the
// batch is recycled once it is used. Only slots batches exist, so memory
// stays bounded however long the input, and a slow consumer slows the scan
// instead of queueing work. Turn by turn (a queue per consumer), which
// consumer gets a batch depends only on the input's order; shared (one
// queue), the first free consumer takes it.
//
// Its uses: the LBR counting (one consumer), the unwinding of hybrid
// samples (one per core, turn by turn) and the parsing of perf script
// chunks (one per -j, shared; a chunk's slot is recycled once its result
// is merged in input order).
type batchQueue[B any] struct {
	work []chan *B // one per consumer, or one shared
	free chan *B
	next int
	wg   sync.WaitGroup
}

// newBatchQueue starts n consumers of at most slots batches made by
// newBatch; consume(i, b) is consumer i's work on b, which must end, then
// or later, with Recycle(b).
func newBatchQueue[B any](n, slots int, shared bool, newBatch func() *B, consume func(i int, b *B)) *batchQueue[B] {
	q := &batchQueue[B]{free: make(chan *B, slots)}
	for range slots {
		q.free <- newBatch()
	}
	queues := n
	if shared {
		queues = 1
	}
	for range queues {
		q.work = append(q.work, make(chan *B, max(1, slots/queues)))
	}
	for i := range n {
		q.wg.Go(func() {
			for b := range q.work[i%queues] {
				consume(i, b)
			}
		})
	}
	return q
}

// Free waits for a free batch and returns it.
func (q *batchQueue[B]) Free() *B { return <-q.free }

// Send hands b to the next consumer.
func (q *batchQueue[B]) Send(b *B) {
	q.work[q.next] <- b
	q.next = (q.next + 1) % len(q.work)
}

// Recycle gives back a used batch; any goroutine may call it.
func (q *batchQueue[B]) Recycle(b *B) { q.free <- b }

// Close sends nothing more and waits for the consumers to end.
func (q *batchQueue[B]) Close() {
	for _, w := range q.work {
		close(w)
	}
	q.wg.Wait()
}
