// Package proforder is llvm-profdata order: a function order for the
// linker, made from the temporal profile traces of an instrumentation
// profile by LLVM's balanced partitioning (functions that start up
// together share pages), as llvm-profdata-19 computes and prints it.
package proforder

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/profshow"
)

// Options are llvm-profdata order's flags.
type Options struct {
	Input string
	// NumTestTraces (--num-test-traces) holds the last traces back to
	// score the order: the area under their page-fault curve.
	NumTestTraces uint64
	Output        string // -o: a file instead of w ("-" or "" for w)
}

// Run writes the order of opts.Input's functions on w, or in opts.Output.
func Run(w io.Writer, opts Options) error {
	if opts.Output == "" || opts.Output == "-" {
		return order(w, opts)
	}
	out, err := atomicfile.Create(opts.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := order(out, opts); err != nil {
		return err
	}
	return out.Commit()
}

func order(w io.Writer, opts Options) error {
	if err := profformat.CheckNotEmpty(opts.Input, profformat.KindInstr); err != nil {
		return err
	}
	recs, info, err := profshow.ReadInstrRecords(opts.Input)
	if err != nil {
		return err
	}
	traces := info.Traces
	if n := opts.NumTestTraces; n > 0 && n >= uint64(len(traces)) {
		return fmt.Errorf("--num-test-traces must be smaller than the total number of traces: expected: < %d, actual: %d", len(traces), n)
	}
	cut := len(traces) - int(opts.NumTestTraces)
	nodes := traceNodes(traces[:cut])
	balancedPartition(nodes)
	names := map[uint64]string{}
	for _, r := range recs {
		names[instrprof.NameRef(r.Name)] = r.Name
	}
	return writeOrder(w, nodes, traces[cut:], names)
}

// traceNodes makes the partitioning's nodes of traces, as LLVM's
// TemporalProfTraceTy::createBPFunctionNodes: each trace's functions join
// utility groups from the one of their first call on (a new group starts
// at timestamps 1, 2, 4, 8, ...); groups of one function, or of more than
// half of them, are dropped; nodes come by first timestamp, then id.
func traceNodes(traces []instrprof.Trace) []*node {
	first := map[uint64]int{}
	groups := map[uint64][]uint32{}
	var maxGroup uint32
	for _, t := range traces {
		firstGroup := map[uint64]uint32{}
		var order []uint64
		cutoff := 1
		for ts, id := range t.Refs {
			if f, ok := first[id]; !ok || ts < f {
				first[id] = ts
			}
			if ts >= cutoff {
				maxGroup++
				cutoff = 2 * ts
			}
			if _, ok := firstGroup[id]; !ok {
				firstGroup[id] = maxGroup
				order = append(order, id)
			}
		}
		for _, id := range order {
			for g := firstGroup[id]; g <= maxGroup; g++ {
				groups[id] = append(groups[id], g)
			}
		}
		maxGroup++
	}
	dropOutlierGroups(groups)
	nodes := make([]*node, 0, len(groups))
	for id, gs := range groups {
		nodes = append(nodes, &node{id: id, utilities: gs})
	}
	sort.Slice(nodes, func(i, j int) bool {
		a, b := nodes[i], nodes[j]
		if first[a.id] != first[b.id] {
			return first[a.id] < first[b.id]
		}
		return a.id < b.id
	})
	return nodes
}

// dropOutlierGroups removes the groups of one function, and those of
// more than half of the functions.
func dropOutlierGroups(groups map[uint64][]uint32) {
	freq := map[uint32]int{}
	for _, gs := range groups {
		for _, g := range gs {
			freq[g]++
		}
	}
	for id, gs := range groups {
		kept := gs[:0]
		for _, g := range gs {
			if f := freq[g]; f > 1 && 2*f <= len(groups) {
				kept = append(kept, g)
			}
		}
		groups[id] = kept
	}
}

// writeOrder prints the order as llvm-profdata order does, with the
// test traces' page-fault area when there are test traces.
func writeOrder(w io.Writer, nodes []*node, test []instrprof.Trace, names map[uint64]string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Ordered %d functions\n", len(nodes))
	if len(test) > 0 {
		fmt.Fprintf(&b, "# Total area under the page fault curve: %e\n", float32(pageFaultArea(nodes, test)))
	}
	b.WriteString("# Warning: Mach-O may prefix symbols with \"_\" depending on the linkage and this output does not take that into account. Some post-processing may be required before passing to the linker via -order_file.\n")
	for _, n := range nodes {
		file, fn := splitPGOName(names[n.id])
		if file != "" {
			fmt.Fprintf(&b, "# %s\n", file)
		}
		b.WriteString(fn + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// pageFaultArea sums, over each test trace's calls, the pages touched so
// far, 32 functions a page in the order.
func pageFaultArea(nodes []*node, test []instrprof.Trace) uint32 {
	page := map[uint64]int{}
	for i, n := range nodes {
		page[n.id] = i / 32
	}
	var area uint32
	for _, t := range test {
		touched := map[int]bool{}
		for _, id := range t.Refs {
			p, ok := page[id]
			if !ok {
				continue
			}
			touched[p] = true
			area += uint32(len(touched))
		}
	}
	return area
}

// splitPGOName splits an IR PGO name "file;function" of a local function.
func splitPGOName(name string) (file, fn string) {
	if f, n, ok := strings.Cut(name, ";"); ok && n != "" {
		return f, n
	}
	return "", name
}
