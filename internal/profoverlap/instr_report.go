package profoverlap

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/instrprof"
)

// sortedByValue returns a copy of site sorted by value, as LLVM sorts a
// value site before comparing it.
func sortedByValue(site []instrprof.Value) []instrprof.Value {
	out := slices.Clone(site)
	slices.SortStableFunc(out, func(a, b instrprof.Value) int {
		switch {
		case a.Value < b.Value:
			return -1
		case a.Value > b.Value:
			return 1
		}
		return 0
	})
	return out
}

// containsName reports whether the function name matches --function: LLVM
// takes it as a substring.
func containsName(name, filter string) bool { return strings.Contains(name, filter) }

// valueKindNames are the names OverlapStats::dump gives the value kinds.
var valueKindNames = [instrprof.NumValueKinds]string{"IndirectCall", "MemOP", "VTable"}

// dump writes s as OverlapStats::dump does, when it is valid.
func (s *stats) dump(w io.Writer) {
	if !s.valid {
		return
	}
	b := bufio.NewWriter(w)
	defer b.Flush()
	entry := "functions"
	if s.function {
		entry = "edge counters"
		fmt.Fprintf(b, "Function level:\n  Function: %s (Hash=%d)\n", s.name, s.hash)
	} else {
		fmt.Fprint(b, s.heading)
	}
	s.dumpEntries(b, entry)
	s.dumpEdges(b)
	for k := range s.base.values {
		if s.base.values[k] >= 1 || s.test.values[k] >= 1 {
			s.dumpValues(b, k)
		}
	}
}

func (s *stats) dumpEntries(w io.Writer, entry string) {
	fmt.Fprintf(w, "  # of %s overlap: %d\n", entry, s.overlap.entries)
	if s.mismatch.entries > 0 {
		fmt.Fprintf(w, "  # of %s mismatch: %d\n", entry, s.mismatch.entries)
	}
	if s.unique.entries > 0 {
		fmt.Fprintf(w, "  # of %s only in test_profile: %d\n", entry, s.unique.entries)
	}
}

func (s *stats) dumpEdges(w io.Writer) {
	fmt.Fprintf(w, "  Edge profile overlap: %s\n", percent(s.overlap.counts, 3))
	if s.mismatch.entries > 0 {
		fmt.Fprintf(w, "  Mismatched count percentage (Edge): %s\n", percent(s.mismatch.counts, 3))
	}
	if s.unique.entries > 0 {
		fmt.Fprintf(w, "  Percentage of Edge profile only in test_profile: %s\n", percent(s.unique.counts, 3))
	}
	fmt.Fprintf(w, "  Edge profile base count sum: %s\n", cFloat(s.base.counts, 0))
	fmt.Fprintf(w, "  Edge profile test count sum: %s\n", cFloat(s.test.counts, 0))
}

func (s *stats) dumpValues(w io.Writer, k int) {
	name := valueKindNames[k]
	fmt.Fprintf(w, "  %s profile overlap: %s\n", name, percent(s.overlap.values[k], 3))
	if s.mismatch.entries > 0 {
		fmt.Fprintf(w, "  Mismatched count percentage (%s): %s\n", name, percent(s.mismatch.values[k], 3))
	}
	if s.unique.entries > 0 {
		fmt.Fprintf(w, "  Percentage of %s profile only in test_profile: %s\n", name, percent(s.unique.values[k], 3))
	}
	fmt.Fprintf(w, "  %s profile base count sum: %s\n", name, cFloat(s.base.values[k], 0))
	fmt.Fprintf(w, "  %s profile test count sum: %s\n", name, cFloat(s.test.values[k], 0))
}
