package proforder

import (
	"sort"
	"testing"
)

func TestMT19937(t *testing.T) {
	// std::mt19937 and uniform_real_distribution<float>(0, 1) of libstdc++
	for _, tc := range []struct {
		seed uint32
		want []float32
	}{
		{1, []float32{0.41702199, 0.997184813, 0.720324516, 0.932557344, 0.00011438108}},
	} {
		r := newMT19937(tc.seed)
		for i, w := range tc.want {
			if got := r.unitFloat(); got != w {
				t.Errorf("seed %d draw %d = %v, want %v", tc.seed, i, got, w)
			}
		}
	}
}

func TestNthElement(t *testing.T) {
	for _, tc := range []struct {
		inputs []int
		nth    int
	}{
		{[]int{4, 1, 3, 0, 2}, 3},
		{[]int{9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 10, 11}, 6},
		{[]int{2, 0, 1}, 2},
	} {
		nodes := make([]*node, len(tc.inputs))
		for i, in := range tc.inputs {
			nodes[i] = &node{input: in}
		}
		nthElement(nodes, tc.nth)
		sorted := append([]int(nil), tc.inputs...)
		sort.Ints(sorted)
		if nodes[tc.nth].input != sorted[tc.nth] {
			t.Fatalf("%v: rank %d holds %d, want %d", tc.inputs, tc.nth, nodes[tc.nth].input, sorted[tc.nth])
		}
		for i, n := range nodes {
			if i < tc.nth && n.input > sorted[tc.nth] || i > tc.nth && n.input < sorted[tc.nth] {
				t.Errorf("%v: %d on the wrong side of rank %d", tc.inputs, n.input, tc.nth)
			}
		}
	}
}

func TestPartitionIsLibstdcxx(t *testing.T) {
	for _, tc := range []struct {
		in, want []int
		mid      int
	}{
		// std::partition swaps from both ends: not stable
		{[]int{1, 2, 3, 4, 5, 6}, []int{6, 2, 4, 3, 5, 1}, 3},
		{[]int{2, 4, 1, 3}, []int{2, 4, 1, 3}, 2},
	} {
		s := append([]int(nil), tc.in...)
		mid := partition(s, func(v int) bool { return v%2 == 0 })
		if mid != tc.mid || !equal(s, tc.want) {
			t.Errorf("partition(%v) = %v, %d; want %v, %d", tc.in, s, mid, tc.want, tc.mid)
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
