package symbolize

import (
	"cmp"
	"container/heap"
	"slices"
)

// flatten turns possibly nested subroutine ranges into disjoint segments,
// each owned by the innermost subroutine: of the ranges covering an address,
// the one whose subroutine comes last in DIE order, as in LLVM's address map.
func flatten(ivs []interval) []segment {
	slices.SortFunc(ivs, func(a, b interval) int { return cmp.Compare(a.start, b.start) })
	points := boundaryPoints(ivs)
	var segs []segment
	active := &intervalHeap{}
	next := 0
	for i := 0; i+1 < len(points); i++ {
		p := points[i]
		for next < len(ivs) && ivs[next].start == p {
			heap.Push(active, ivs[next])
			next++
		}
		for active.Len() > 0 && (*active)[0].end <= p {
			heap.Pop(active)
		}
		if active.Len() == 0 {
			continue
		}
		segs = appendSegment(segs, segment{p, points[i+1], (*active)[0].sub})
	}
	return segs
}

func boundaryPoints(ivs []interval) []uint64 {
	points := make([]uint64, 0, 2*len(ivs))
	for _, iv := range ivs {
		points = append(points, iv.start, iv.end)
	}
	slices.Sort(points)
	out := points[:0]
	for i, p := range points {
		if i == 0 || p != points[i-1] {
			out = append(out, p)
		}
	}
	return out
}

// appendSegment appends s, merging it into the last segment when they touch
// and have one owner.
func appendSegment(segs []segment, s segment) []segment {
	if n := len(segs); n > 0 && segs[n-1].end == s.start && segs[n-1].sub == s.sub {
		segs[n-1].end = s.end
		return segs
	}
	return append(segs, s)
}

// intervalHeap is a max-heap of intervals by subroutine order. Intervals
// that ended stay until they reach the top.
type intervalHeap []interval

func (h intervalHeap) Len() int           { return len(h) }
func (h intervalHeap) Less(i, j int) bool { return h[i].sub > h[j].sub }
func (h intervalHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intervalHeap) Push(x any)        { *h = append(*h, x.(interval)) }
func (h *intervalHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
