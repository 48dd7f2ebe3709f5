// Command pgoeval computes what scripts/pgo-eval.sh reports about Go
// profiles: how much call-edge weight two profiles share.
//
//	pgoeval overlap A.pprof B.pprof
//	pgoeval diff A.pprof B.pprof
//	pgoeval stack-overlap A.pprof B.pprof
//	pgoeval stack-diff A.pprof B.pprof
//
// overlap prints Σ min(a_e, b_e) over the call edges e of the two
// profiles, each edge weighted by its share of its profile's edge weight
// (1 when the profiles weigh every edge alike, 0 when they share none).
// Its edges are the ones go build -pgo reads, keyed as cmd/internal/pgo
// keys them: caller, call-site line offset from the caller's start line,
// callee; only the two innermost locations of a sample count (with their
// inlined frames), as in Go's profile graph.
//
// stack-overlap is the same sum over the caller → callee function edges
// of whole stacks (stackEdges): a sample gives its weight to every
// function edge of its stack, inlined frames included, once per edge. It
// compares the shape of two profiles' call graphs, root frames included,
// and is what TestGoProfilerEdgeShare measures.
//
// diff and stack-diff print the 25 edges whose shares differ most.
package main

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
)

// modes maps a command to the edges it reads and whether it prints the
// overlap (or else the diff).
var modes = map[string]struct {
	edges   edgesOf
	overlap bool
}{
	"overlap":       {pgoEdges, true},
	"diff":          {pgoEdges, false},
	"stack-overlap": {stackEdges, true},
	"stack-diff":    {stackEdges, false},
}

func main() {
	if len(os.Args) != 4 {
		usage()
	}
	mode, ok := modes[os.Args[1]]
	if !ok {
		usage()
	}
	a, err := fileShares(os.Args[2], mode.edges)
	if err != nil {
		fail(err)
	}
	b, err := fileShares(os.Args[3], mode.edges)
	if err != nil {
		fail(err)
	}
	if !mode.overlap {
		printDiff(a, b, 25)
		return
	}
	fmt.Printf("%.4f\n", overlap(a, b))
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: pgoeval overlap|diff|stack-overlap|stack-diff A.pprof B.pprof")
	os.Exit(2)
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
		if c := cmp.Compare(math.Abs(a[y]-b[y]), math.Abs(a[x]-b[x])); c != 0 {
			return c
		}
		return cmp.Compare(x.String(), y.String())
	})
	for _, e := range es[:min(n, len(es))] {
		fmt.Printf("%6.2f%% %6.2f%%  %s\n", 100*a[e], 100*b[e], e)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pgoeval:", err)
	os.Exit(1)
}
