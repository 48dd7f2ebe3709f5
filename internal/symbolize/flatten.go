package symbolize

import (
	"cmp"
	"slices"
)

// flatten turns possibly nested subroutine ranges into disjoint segments,
// each owned by the innermost subroutine: of the ranges covering an address,
// the one whose subroutine comes last in DIE order, as in LLVM's address map.
// It sweeps the ranges by start: the owner changes only where a range
// starts or where the owner's range ends.
func flatten(ivs []interval) []segment {
	slices.SortFunc(ivs, func(a, b interval) int { return cmp.Compare(a.start, b.start) })
	segs := make([]segment, 0, len(ivs))
	var active intervalHeap
	next := 0
	var p uint64 // where the segment to come starts
	for next < len(ivs) || len(active) > 0 {
		if len(active) == 0 {
			p = ivs[next].start // after a gap
		}
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
		end := active[0].end
		if next < len(ivs) {
			end = min(end, ivs[next].start)
		}
		segs = appendSegment(segs, segment{p, end, active[0].sub})
		p = end
	}
	return segs
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
