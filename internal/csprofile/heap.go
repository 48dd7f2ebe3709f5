package csprofile

// candidateQueue is a max-heap of inline candidates laid out and moved
// exactly as libstdc++'s std::priority_queue (push_heap, pop_heap) does, so
// that candidates that compare equal come out in llvm-profgen's order.
type candidateQueue struct {
	h []candidate
}

func (q *candidateQueue) len() int { return len(q.h) }

func (q *candidateQueue) push(c candidate) {
	q.h = append(q.h, c)
	q.siftUp(len(q.h)-1, 0, c)
}

// pop removes and returns the greatest candidate.
func (q *candidateQueue) pop() candidate {
	top := q.h[0]
	n := len(q.h) - 1
	if n > 0 {
		last := q.h[n]
		q.h[n] = q.h[0]
		q.adjust(0, n, last)
	}
	q.h = q.h[:n]
	return top
}

// siftUp is libstdc++'s __push_heap: value moves up from hole while its
// parent is less.
func (q *candidateQueue) siftUp(hole, top int, value candidate) {
	parent := (hole - 1) / 2
	for hole > top && q.h[parent].less(value) {
		q.h[hole] = q.h[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	q.h[hole] = value
}

// adjust is libstdc++'s __adjust_heap over the first n elements: the hole
// goes down to a leaf along the greater children, then value sifts up.
func (q *candidateQueue) adjust(hole, n int, value candidate) {
	top := hole
	second := hole
	for second < (n-1)/2 {
		second = 2 * (second + 1)
		if q.h[second].less(q.h[second-1]) {
			second--
		}
		q.h[hole] = q.h[second]
		hole = second
	}
	if n&1 == 0 && second == (n-2)/2 {
		second = 2 * (second + 1)
		q.h[hole] = q.h[second-1]
		hole = second - 1
	}
	q.siftUp(hole, top, value)
}
