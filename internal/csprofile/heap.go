package csprofile

import "github.com/profgen/profgen/internal/cxxheap"

// candidateQueue is a max-heap of inline candidates laid out and moved
// exactly as libstdc++'s std::priority_queue (push_heap, pop_heap) does, so
// that candidates that compare equal come out in llvm-profgen's order.
type candidateQueue struct {
	h []candidate
}

func (q *candidateQueue) len() int { return len(q.h) }

func (q *candidateQueue) push(c candidate) {
	q.h = append(q.h, c)
	cxxheap.Push(q.h, len(q.h)-1, 0, c, candidate.less)
}

// pop removes and returns the greatest candidate.
func (q *candidateQueue) pop() candidate {
	top := q.h[0]
	n := len(q.h) - 1
	if n > 0 {
		last := q.h[n]
		q.h[n] = q.h[0]
		cxxheap.Adjust(q.h, 0, n, last, candidate.less)
	}
	q.h = q.h[:n]
	return top
}
