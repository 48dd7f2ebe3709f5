package generate

import "github.com/profgen/profgen/internal/sampleprof"

// RangeCount is an inclusive address range with its count.
type RangeCount struct {
	Start, End, Count uint64
}

// DisjointRanges splits overlapping ranges into disjoint ones whose count
// is the sum of the ranges covering them, in address order
// (llvm-profgen's findDisjointRanges, without zero-filled functions).
func DisjointRanges(ranges map[Range]uint64) []RangeCount {
	in := make([]countedRange, 0, len(ranges))
	for r, n := range ranges {
		in = append(in, countedRange{r.Start, r.End, n})
	}
	dis := disjointRanges(in)
	out := make([]RangeCount, len(dis))
	for i, r := range dis {
		out[i] = RangeCount{r.start, r.end, r.count}
	}
	return out
}

// UpdateCallsiteSamples raises the body count of each call site of f to
// the sum of its call targets (FunctionSamples::updateCallsiteSamples).
func UpdateCallsiteSamples(f *sampleprof.FunctionSamples) { updateCallsiteSamples(f) }

// IsAmbiguous tells whether a function is one of those llvm-profgen leaves
// out of profiles (__cxx_global_var_init*, __tls_init*: one per
// translation unit under one name).
func IsAmbiguous(name string) bool { return isAmbiguous(name) }
