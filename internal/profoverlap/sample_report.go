package profoverlap

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/profgen/profgen/internal/sampleprof"
)

// joined is a key of a sort-merge join of two maps, with which of the two
// has it.
type joined[K comparable] struct {
	key    K
	status matchStatus
}

// join returns the keys of base and test in the order sorted gives them,
// each with which of the two maps has it.
func join[K comparable, V any](base, test map[K]V, sorted func(map[K]matchStatus) []K) []joined[K] {
	seen := make(map[K]matchStatus, len(base)+len(test))
	for k := range base {
		seen[k] = baseOnly
	}
	for k := range test {
		if _, ok := seen[k]; ok {
			seen[k] = inBoth
		} else {
			seen[k] = testOnly
		}
	}
	out := make([]joined[K], 0, len(seen))
	for _, k := range sorted(seen) {
		out = append(out, joined[K]{k, seen[k]})
	}
	return out
}

// joinLocations joins two maps by line location, in location order.
func joinLocations[V any](base, test map[sampleprof.LineLocation]V) []joined[sampleprof.LineLocation] {
	return join(base, test, sampleprof.SortedLocations[matchStatus])
}

// joinNames joins the callees of two call sites, in name order.
func joinNames(base, test map[string]*sampleprof.FunctionSamples) []joined[string] {
	return join(base, test, sortedNames)
}

func sortedNames(m map[string]matchStatus) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// zeroSamples reports a profile without samples, as llvm does instead of
// an overlap.
func (o *sampleOverlap) zeroSamples(w io.Writer) bool {
	if o.prof.baseSample == 0 {
		fmt.Fprintf(w, "Sum of sample counts for profile %s is 0.\n", o.opts.Base)
	}
	if o.prof.testSample == 0 {
		fmt.Fprintf(w, "Sum of sample counts for profile %s is 0.\n", o.opts.Test)
	}
	return o.prof.baseSample == 0 || o.prof.testSample == 0
}

// share is n/total as a float, as LLVM divides.
func share(n, total uint64) float64 { return float64(n) / float64(total) }

// dumpProgram writes the program-level similarity and overlap.
func (o *sampleOverlap) dumpProgram(w io.Writer) {
	p := &o.prof
	fmt.Fprint(w, heading(o.opts))
	fmt.Fprintf(w, "  Whole program profile similarity: %s\n", percent(p.similarity, 3))
	fmt.Fprintf(w, "  Whole program sample overlap: %s\n", percent(share(p.overlapSample, p.unionSample), 3))
	fmt.Fprintf(w, "    percentage of samples unique in base profile: %s\n", percent(share(p.baseUniqueSample, p.baseSample), 3))
	fmt.Fprintf(w, "    percentage of samples unique in test profile: %s\n", percent(share(p.testUniqueSample, p.testSample), 3))
	fmt.Fprintf(w, "    total samples in base profile: %d\n    total samples in test profile: %d\n", p.baseSample, p.testSample)
	fmt.Fprintf(w, "  Function overlap: %s\n", percent(share(p.overlapCount, p.unionCount), 3))
	fmt.Fprintf(w, "    overlap functions: %d\n", p.overlapCount)
	fmt.Fprintf(w, "    functions unique in base profile: %d\n", p.baseUniqueCount)
	fmt.Fprintf(w, "    functions unique in test profile: %d\n", p.testUniqueCount)
}

// dumpHot writes the hot-function and hot-block overlaps.
func (o *sampleOverlap) dumpHot(w io.Writer) {
	dumpHotUnits(w, "function", "functions", &o.hotFunc)
	dumpHotUnits(w, "block", "blocks", &o.hotBlock)
}

func dumpHotUnits(w io.Writer, unit, units string, s *sampleStats) {
	fmt.Fprintf(w, "  Hot-%s overlap: %s\n", unit, percent(share(s.overlapCount, s.unionCount), 3))
	fmt.Fprintf(w, "    overlap hot %s: %d\n", units, s.overlapCount)
	fmt.Fprintf(w, "    hot %s unique in base profile: %d\n", units, s.baseCount-s.overlapCount)
	fmt.Fprintf(w, "    hot %s unique in test profile: %d\n", units, s.testCount-s.overlapCount)
}

// detailColumns are the columns of the function-level details table.
var detailColumns = []struct {
	title string
	col   int
}{
	{"Base weight", 0}, {"Test weight", 15}, {"Similarity", 30}, {"Overlap", 43},
	{"Base unique", 53}, {"Test unique", 67}, {"Base samples", 81},
	{"Test samples", 96}, {"Function name", 111},
}

// dumpFunctions writes the functions selected for details, by base
// weight, highest first (ties in the order they were selected).
func (o *sampleOverlap) dumpFunctions(w io.Writer) {
	if len(o.listed) == 0 {
		return
	}
	sort.SliceStable(o.listed, func(i, j int) bool { return o.listed[i].baseWeight > o.listed[j].baseWeight })
	b := bufio.NewWriter(w)
	defer b.Flush()
	b.WriteString("Function-level details:\n")
	titles := make([]string, len(detailColumns))
	for i, c := range detailColumns {
		titles[i] = c.title
	}
	b.WriteString(padColumns(titles) + "\n")
	for _, f := range o.listed {
		b.WriteString(padColumns(detailCells(&f)) + "\n")
	}
}

// detailCells are the cells of one function's row.
func detailCells(f *sampleStats) []string {
	ratio := func(n, total uint64) float64 {
		if total == 0 {
			return 0
		}
		return share(n, total)
	}
	return []string{
		percent(f.baseWeight, 2), percent(f.testWeight, 2), percent(f.similarity, 2),
		percent(ratio(f.overlapSample, f.unionSample), 2),
		percent(ratio(f.baseUniqueSample, f.baseSample), 2),
		percent(ratio(f.testUniqueSample, f.testSample), 2),
		fmt.Sprint(f.baseSample), fmt.Sprint(f.testSample), f.testName,
	}
}

// padColumns lays cells out at detailColumns' columns, as LLVM's
// formatted_raw_ostream::PadToColumn does: at least one space apart.
func padColumns(cells []string) string {
	var b strings.Builder
	width := 0
	for i, c := range cells {
		if i > 0 {
			pad := max(detailColumns[i].col-width, 1)
			b.WriteString(strings.Repeat(" ", pad))
			width += pad
		}
		b.WriteString(c)
		width += utf8.RuneCountInString(c)
	}
	return b.String()
}
