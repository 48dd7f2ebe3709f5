// Command pgoeval computes what scripts/pgo-eval.sh reports about Go
// profiles: the weighted overlap of the call edges go build -pgo reads.
//
//	pgoeval overlap A.pprof B.pprof
//	pgoeval diff A.pprof B.pprof
//
// prints Σ min(a_e, b_e) over the call edges e of the two profiles, each
// edge weighted by its share of its profile's edge weight (1 when the
// profiles weigh every edge alike, 0 when they share none). Edges are
// keyed as cmd/internal/pgo keys them: caller, call-site line offset from
// the caller's start line, callee; only the two innermost locations of a
// sample count (with their inlined frames), as in Go's profile graph.
package main

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"

	"github.com/google/pprof/profile"
)

func main() {
	if len(os.Args) != 4 || os.Args[1] != "overlap" && os.Args[1] != "diff" {
		fmt.Fprintln(os.Stderr, "usage: pgoeval overlap|diff A.pprof B.pprof")
		os.Exit(2)
	}
	a, err := edgeShares(os.Args[2])
	if err != nil {
		fail(err)
	}
	b, err := edgeShares(os.Args[3])
	if err != nil {
		fail(err)
	}
	if os.Args[1] == "diff" {
		printDiff(a, b, 25)
		return
	}
	fmt.Printf("%.4f\n", overlap(a, b))
}

// printDiff prints the n edges whose shares differ most between a and b.
func printDiff(a, b map[edge]float64, n int) {
	all := map[edge]bool{}
	for e := range a {
		all[e] = true
	}
	for e := range b {
		all[e] = true
	}
	es := slices.Collect(maps.Keys(all))
	slices.SortFunc(es, func(x, y edge) int {
		return cmp.Compare(math.Abs(a[y]-b[y]), math.Abs(a[x]-b[x]))
	})
	for _, e := range es[:min(n, len(es))] {
		fmt.Printf("%6.2f%% %6.2f%%  %s:%d -> %s\n", 100*a[e], 100*b[e], e.caller, e.offset, e.callee)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pgoeval:", err)
	os.Exit(1)
}

// edge is a call edge as Go's PGO keys it.
type edge struct {
	caller string
	offset int64
	callee string
}

// edgeShares reads a profile and returns each call edge's share of the
// total edge weight.
func edgeShares(path string) (map[edge]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	vi := valueIndex(p)
	if vi < 0 {
		return nil, fmt.Errorf("%s: no samples/count or cpu/nanoseconds values", path)
	}
	weights := map[edge]int64{}
	var total int64
	for _, s := range p.Sample {
		seen := map[edge]bool{}
		for _, e := range sampleEdges(s) {
			if !seen[e] {
				seen[e] = true
				weights[e] += s.Value[vi]
				total += s.Value[vi]
			}
		}
	}
	shares := make(map[edge]float64, len(weights))
	for e, w := range weights {
		shares[e] = float64(w) / float64(total)
	}
	return shares, nil
}

func valueIndex(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == "samples" && st.Unit == "count" || st.Type == "cpu" && st.Unit == "nanoseconds" {
			return i
		}
	}
	return -1
}

// sampleEdges returns the call edges among the lines of a sample's two
// innermost locations, innermost first.
func sampleEdges(s *profile.Sample) []edge {
	var lines []profile.Line
	for i, l := range s.Location {
		if i == 2 {
			break
		}
		lines = append(lines, l.Line...)
	}
	var out []edge
	for i := 0; i+1 < len(lines); i++ {
		callee, caller := lines[i], lines[i+1]
		if callee.Function == nil || caller.Function == nil {
			continue
		}
		out = append(out, edge{caller.Function.Name, caller.Line - caller.Function.StartLine, callee.Function.Name})
	}
	return out
}

func overlap(a, b map[edge]float64) float64 {
	sum := 0.0
	for e, x := range a {
		sum += min(x, b[e])
	}
	return sum
}
