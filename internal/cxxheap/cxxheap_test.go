package cxxheap

import (
	"slices"
	"testing"
)

type elem struct{ key, id int }

func byKey(a, b elem) bool { return a.key < b.key }

var keys = []int{3, 1, 3, 2, 3, 1, 2, 3, 1, 2, 5, 0, 3, 3}

// The expected orders are what std::push_heap / std::pop_heap and
// std::make_heap of libstdc++ (clang++-19, Debian 12) leave for keys,
// elements of equal key told apart by id.
func TestMatchesLibstdcxx(t *testing.T) {
	tests := []struct {
		name string
		run  func() []int
		want []int
	}{
		{"push then pop all", pushPopAll, []int{10, 2, 13, 12, 0, 4, 7, 6, 9, 3, 5, 1, 8, 11}},
		{"make_heap", makeHeap, []int{10, 4, 13, 7, 0, 12, 2, 3, 8, 9, 1, 11, 5, 6}},
	}
	for _, tt := range tests {
		if got := tt.run(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: ids %v, libstdc++ gives %v", tt.name, got, tt.want)
		}
	}
}

func pushPopAll() []int {
	var h []elem
	for i, k := range keys {
		h = append(h, elem{k, i})
		Push(h, len(h)-1, 0, h[len(h)-1], byKey)
	}
	var ids []int
	for n := len(h); n > 0; n-- {
		top, last := h[0], h[n-1]
		h[n-1] = top
		Adjust(h, 0, n-1, last, byKey)
		ids = append(ids, top.id)
	}
	return ids
}

func makeHeap() []int {
	h := make([]elem, len(keys))
	for i, k := range keys {
		h[i] = elem{k, i}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		Adjust(h, i, len(h), h[i], byKey)
	}
	ids := make([]int, len(h))
	for i, e := range h {
		ids[i] = e.id
	}
	return ids
}
