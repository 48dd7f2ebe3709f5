package driver

import (
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/perfdata"
)

// foreignNamer names the frames of perf.data as perf would, except those
// that the aggregation places in a profiled binary: the symbolizer names
// them, and aggregate keeps perf's name only of frames it cannot place.
// So the symbol tables of the profiled binaries are loaded only if such a
// frame turns up, not read (twice) for every run.
type foreignNamer struct {
	names perfdata.SymbolNamer
	bins  []aggregate.StackBinary
}

func (n foreignNamer) Name(dso string, kernel bool, addr uint64) string {
	if !kernel && n.placed(dso, addr) {
		return ""
	}
	return n.names.Name(dso, kernel, addr)
}

func (n foreignNamer) Prefetch(dso string, kernel bool) {
	if !kernel && aggregate.BinaryOf(n.bins, dso) >= 0 {
		return // loaded, if ever, by the first frame it cannot place
	}
	n.names.Prefetch(dso, kernel)
}

// placed reports whether a frame at file offset off of dso is placed in a
// profiled binary both as the sampled address and as a return address
// (one byte before).
func (n foreignNamer) placed(dso string, off uint64) bool {
	bi := aggregate.BinaryOf(n.bins, dso)
	if bi < 0 || off == 0 {
		return false
	}
	_, ip := n.bins[bi].VaddrOfOffset(off)
	_, ret := n.bins[bi].VaddrOfOffset(off - 1)
	return ip && ret
}
