package symbolize

import (
	"cmp"
	"slices"
)

// flatten turns possibly nested subroutine ranges into disjoint segments,
// each owned by the innermost subroutine: of the ranges covering an address,
// the one whose subroutine comes last in DIE order, as in LLVM's address map.
func flatten(ivs []interval) []segment {
	slices.SortFunc(ivs, func(a, b interval) int { return cmp.Compare(a.start, b.start) })
	points := boundaryPoints(ivs)
	segs := make([]segment, 0, len(points))
	var active intervalHeap
	next := 0
	for i := 0; i+1 < len(points); i++ {
		p := points[i]
		for next < len(ivs) && ivs[next].start == p {
			active.push(ivs[next])
			next++
		}
		for len(active) > 0 && active[0].end <= p {
			active.pop()
		}
		if len(active) == 0 {
			continue
		}
		segs = appendSegment(segs, segment{p, points[i+1], active[0].sub})
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

func (h *intervalHeap) push(iv interval) {
	*h = append(*h, iv)
	a := *h
	for i := len(a) - 1; i > 0; {
		up := (i - 1) / 2
		if a[up].sub >= a[i].sub {
			break
		}
		a[up], a[i] = a[i], a[up]
		i = up
	}
}

// pop removes the top.
func (h *intervalHeap) pop() {
	a := *h
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	for i := 0; ; {
		top, l, r := i, 2*i+1, 2*i+2
		if l < n && a[l].sub > a[top].sub {
			top = l
		}
		if r < n && a[r].sub > a[top].sub {
			top = r
		}
		if top == i {
			break
		}
		a[i], a[top] = a[top], a[i]
		i = top
	}
	*h = a
}
