package profshow

// topN keeps the n functions with the largest counter as llvm-profdata
// show --topn does: a std::priority_queue (libstdc++'s binary heap, the
// smallest on top) that a larger count replaces the top of, popped into
// a list printed in reverse. Ties come out in the heap's order, as llvm's.
type topN struct {
	n    int
	heap []hotFunc
}

type hotFunc struct {
	name  string
	count uint64
}

// less is llvm's MinCmp: a sorts before b when its count is larger.
func less(a, b hotFunc) bool { return a.count > b.count }

func (t *topN) push(name string, count uint64) {
	if t.n <= 0 {
		return
	}
	if len(t.heap) < t.n {
		t.heap = append(t.heap, hotFunc{name, count})
		pushHeap(t.heap, len(t.heap)-1, 0, hotFunc{name, count})
		return
	}
	if t.heap[0].count < count {
		t.pop()
		t.heap = append(t.heap, hotFunc{name, count})
		pushHeap(t.heap, len(t.heap)-1, 0, hotFunc{name, count})
	}
}

// pop removes the top as std::pop_heap then pop_back do.
func (t *topN) pop() hotFunc {
	h := t.heap
	top, last := h[0], h[len(h)-1]
	if len(h) > 1 {
		h[len(h)-1] = top
		adjustHeap(h[:len(h)-1], 0, last)
	}
	t.heap = h[:len(h)-1]
	return top
}

// sorted pops every function and returns them in llvm's printing order.
func (t *topN) sorted() []hotFunc {
	var popped []hotFunc
	for len(t.heap) > 0 {
		popped = append(popped, t.pop())
	}
	for i, j := 0, len(popped)-1; i < j; i, j = i+1, j-1 {
		popped[i], popped[j] = popped[j], popped[i]
	}
	return popped
}

// pushHeap is libstdc++'s __push_heap.
func pushHeap(h []hotFunc, hole, top int, v hotFunc) {
	parent := (hole - 1) / 2
	for hole > top && less(h[parent], v) {
		h[hole] = h[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	h[hole] = v
}

// adjustHeap is libstdc++'s __adjust_heap.
func adjustHeap(h []hotFunc, hole int, v hotFunc) {
	n, top, child := len(h), hole, hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if less(h[child], h[child-1]) {
			child--
		}
		h[hole] = h[child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		h[hole] = h[child-1]
		hole = child - 1
	}
	pushHeap(h, hole, top, v)
}
