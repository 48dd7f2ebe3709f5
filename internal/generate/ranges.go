package generate

import (
	"sort"
)

// countedRange is an inclusive address range with its sample count.
type countedRange struct {
	start, end, count uint64
}

// withZeroRanges returns the ranges plus a zero-count range for each range
// of every function a range starts in, so that code of a sampled function
// that never ran gets explicit zero samples. A zero range equal to a
// sampled range merges into it. Given zero ([start, end) ranges), those
// take the place of the sampled functions' ranges.
func withZeroRanges(ranges map[Range]uint64, sym Symbolizer, zero [][2]uint64) []countedRange {
	all := make(map[Range]uint64, len(ranges)+len(zero))
	for _, z := range zero {
		all[Range{Start: z[0], End: z[1] - 1}] += 0
	}
	for r, n := range ranges {
		all[r] += n
		fr := sym.FuncRangeAt(r.Start)
		if fr == nil || zero != nil {
			continue
		}
		for _, fnr := range fr.Func.Ranges {
			all[Range{Start: fnr[0], End: fnr[1] - 1}] += 0
		}
	}
	out := make([]countedRange, 0, len(all))
	for r, n := range all {
		out = append(out, countedRange{r.Start, r.End, n})
	}
	return out
}

// boundary sums the counts of the ranges that begin and end at one address.
type boundary struct {
	addr               uint64
	begins, ends       uint64
	isBegin, isEnd     bool
	zeroBegin, zeroEnd bool // a zero-count range begins / ends here
}

// disjointRanges splits overlapping ranges into disjoint ones whose count is
// the sum of the ranges covering them. Gaps between ranges are left out,
// except inside a zero-count range, which keeps them at zero.
func disjointRanges(ranges []countedRange) []countedRange {
	var out []countedRange
	const none = ^uint64(0)
	begin, count, zeroDepth := none, uint64(0), 0
	for _, b := range boundaries(ranges) {
		if b.isBegin {
			if begin != none && begin < b.addr {
				out = append(out, countedRange{begin, b.addr - 1, count})
			}
			count += b.begins
			begin = b.addr
			if b.zeroBegin {
				zeroDepth++
			}
		}
		if b.isEnd {
			out = append(out, countedRange{begin, b.addr, count})
			count -= b.ends
			begin = b.addr + 1
			if b.zeroEnd {
				zeroDepth--
			}
			if count == 0 && zeroDepth == 0 {
				begin = none
			}
		}
	}
	return out
}

func boundaries(ranges []countedRange) []boundary {
	byAddr := map[uint64]*boundary{}
	get := func(a uint64) *boundary {
		b := byAddr[a]
		if b == nil {
			b = &boundary{addr: a}
			byAddr[a] = b
		}
		return b
	}
	for _, r := range ranges {
		s, e := get(r.start), get(r.end)
		s.isBegin, s.begins = true, s.begins+r.count
		e.isEnd, e.ends = true, e.ends+r.count
		if r.count == 0 {
			s.zeroBegin, e.zeroEnd = true, true
		}
	}
	out := make([]boundary, 0, len(byAddr))
	for _, b := range byAddr {
		out = append(out, *b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}
