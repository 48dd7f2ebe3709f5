package proforder

import (
	"math/bits"

	"github.com/profgen/profgen/internal/cxxheap"
)

// nthElement is libstdc++'s std::nth_element of nodes by input order:
// the node of rank nth at nth, smaller ones before it, larger after, in
// the order libstdc++'s introselect leaves them. LLVM's balanced
// partitioning splits a bucket with it, and the order it leaves decides
// ties later, so it is replayed step by step.
func nthElement(s []*node, nth int) {
	if len(s) == 0 || nth == len(s) {
		return
	}
	less := func(i, j int) bool { return s[i].input < s[j].input }
	first, last := 0, len(s)
	depth := 2 * (bits.Len(uint(len(s))) - 1)
	for last-first > 3 {
		if depth == 0 {
			heapSelect(s, first, nth+1, last)
			s[first], s[nth] = s[nth], s[first]
			return
		}
		depth--
		cut := partitionPivot(s, first, last, less)
		if cut <= nth {
			first = cut
		} else {
			last = cut
		}
	}
	insertionSort(s, first, last)
}

// partitionPivot is __unguarded_partition_pivot: the median of three
// moved to first, then Hoare's partition around it.
func partitionPivot(s []*node, first, last int, less func(i, j int) bool) int {
	mid := first + (last-first)/2
	medianToFirst(s, first, first+1, mid, last-1, less)
	lo, hi := first+1, last
	for {
		for less(lo, first) {
			lo++
		}
		hi--
		for less(first, hi) {
			hi--
		}
		if lo >= hi {
			return lo
		}
		s[lo], s[hi] = s[hi], s[lo]
		lo++
	}
}

func medianToFirst(s []*node, result, a, b, c int, less func(i, j int) bool) {
	pick := b
	switch {
	case less(a, b) && less(b, c):
		pick = b
	case less(a, b) && less(a, c):
		pick = c
	case less(a, b):
		pick = a
	case less(a, c):
		pick = a
	case less(b, c):
		pick = c
	}
	s[result], s[pick] = s[pick], s[result]
}

// insertionSort is __insertion_sort by input order.
func insertionSort(s []*node, first, last int) {
	for i := first + 1; i < last; i++ {
		v := s[i]
		j := i
		if v.input < s[first].input {
			copy(s[first+1:i+1], s[first:i])
			s[first] = v
			continue
		}
		for v.input < s[j-1].input {
			s[j] = s[j-1]
			j--
		}
		s[j] = v
	}
}

// heapSelect is __heap_select: the smallest middle-first nodes of
// [first, last) into a max-heap at [first, middle).
func heapSelect(s []*node, first, middle, last int) {
	h := s[first:middle]
	for i := len(h)/2 - 1; i >= 0; i-- {
		cxxheap.Adjust(h, i, len(h), h[i], inputBefore)
	}
	for i := middle; i < last; i++ {
		if s[i].input < s[first].input {
			v := s[i]
			s[i] = s[first]
			cxxheap.Adjust(h, 0, len(h), v, inputBefore)
		}
	}
}

// inputBefore reports whether a came before b in the input.
func inputBefore(a, b *node) bool { return a.input < b.input }
