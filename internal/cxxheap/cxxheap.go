// Package cxxheap moves elements through a binary max-heap exactly as
// libstdc++'s heap algorithms do (__push_heap, __adjust_heap, hence
// std::push_heap, std::pop_heap, std::make_heap and std::priority_queue).
// LLVM's tools iterate such heaps, so where elements compare equal their
// output order is the order these moves leave; replaying the moves gives
// the same order. Input: a slice and a strict less; output: the slice
// rearranged in place.
package cxxheap

// Push is __push_heap: v moves up from hole, but not above top, while its
// parent is less than it.
func Push[T any](h []T, hole, top int, v T, less func(a, b T) bool) {
	parent := (hole - 1) / 2
	for hole > top && less(h[parent], v) {
		h[hole] = h[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	h[hole] = v
}

// Adjust is __adjust_heap over the first n elements: the hole goes down
// to a leaf along the greater children, then v is pushed up from there.
func Adjust[T any](h []T, hole, n int, v T, less func(a, b T) bool) {
	top, child := hole, hole
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
	Push(h, hole, top, v, less)
}
