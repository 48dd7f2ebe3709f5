package main

import (
	"fmt"
	"os"

	"github.com/google/pprof/profile"
)

// edge is a call edge: caller, call-site line offset from the caller's
// start line (0 for stackEdges, which key functions only), callee.
type edge struct {
	caller string
	offset int64
	callee string
}

func (e edge) String() string { return fmt.Sprintf("%s:%d -> %s", e.caller, e.offset, e.callee) }

// edgesOf returns the call edges of a sample.
type edgesOf func(s *profile.Sample) []edge

// fileShares reads the profile at path and returns its edges' shares.
func fileShares(path string, edges edgesOf) (map[edge]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s, err := shares(p, edges)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// shares returns each call edge's share of p's total edge weight: the
// weight of an edge is the summed value of the samples that have it
// (once per sample, however often its stack repeats it).
func shares(p *profile.Profile, edges edgesOf) (map[edge]float64, error) {
	vi := valueIndex(p)
	if vi < 0 {
		return nil, fmt.Errorf("no samples/count or cpu/nanoseconds values")
	}
	weights := map[edge]int64{}
	var total int64
	seen := map[edge]bool{}
	for _, s := range p.Sample {
		clear(seen)
		for _, e := range edges(s) {
			if !seen[e] {
				seen[e] = true
				weights[e] += s.Value[vi]
				total += s.Value[vi]
			}
		}
	}
	out := make(map[edge]float64, len(weights))
	for e, w := range weights {
		out[e] = float64(w) / float64(total)
	}
	return out, nil
}

func valueIndex(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == "samples" && st.Unit == "count" || st.Type == "cpu" && st.Unit == "nanoseconds" {
			return i
		}
	}
	return -1
}

// pgoEdges returns the call edges among the lines of a sample's two
// innermost locations, innermost first, keyed by call-site line offset
// as go build -pgo keys them.
func pgoEdges(s *profile.Sample) []edge {
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

// stackEdges returns the caller → callee function edges of a sample's
// whole stack, innermost first: between the inlined frames of a location
// and from each location's outermost frame to the innermost frame of the
// location below it. A location without lines (an address alone) has no
// edge to or from it.
func stackEdges(s *profile.Sample) []edge {
	var out []edge
	var callee *profile.Function
	for _, l := range s.Location {
		if len(l.Line) == 0 {
			callee = nil
			continue
		}
		for _, line := range l.Line {
			if callee != nil && line.Function != nil {
				out = append(out, edge{caller: line.Function.Name, callee: callee.Name})
			}
			callee = line.Function
		}
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
