package profshow

import (
	"cmp"
	"slices"

	"github.com/profgen/profgen/internal/cxxheap"
)

// topN keeps the n functions with the largest counter as llvm-profdata
// show --topn does: a std::priority_queue (libstdc++'s binary heap, the
// smallest on top) that a larger count replaces the top of, popped into
// a list printed in reverse. Ties come out in the heap's order, as llvm's.
// That is llvm-profdata-19's; llvm-profdata-22 sorts a ranking instead.
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
		cxxheap.Push(t.heap, len(t.heap)-1, 0, hotFunc{name, count}, less)
		return
	}
	if t.heap[0].count < count {
		t.pop()
		t.heap = append(t.heap, hotFunc{name, count})
		cxxheap.Push(t.heap, len(t.heap)-1, 0, hotFunc{name, count}, less)
	}
}

// pop removes the top as std::pop_heap then pop_back do.
func (t *topN) pop() hotFunc {
	h := t.heap
	top, last := h[0], h[len(h)-1]
	if len(h) > 1 {
		h[len(h)-1] = top
		cxxheap.Adjust(h, 0, len(h)-1, last, less)
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

// ranking keeps every function's largest counter, as llvm-profdata-22
// show does for --topn and --hot-func-list: all are sorted at the end,
// by count, largest first, ties in reading order.
type ranking []hotFunc

func (r ranking) sorted() []hotFunc {
	out := slices.Clone(r)
	slices.SortStableFunc(out, func(a, b hotFunc) int { return cmp.Compare(b.count, a.count) })
	return out
}
