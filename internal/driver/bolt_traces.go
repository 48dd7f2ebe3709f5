package driver

import (
	"github.com/profgen/profgen/internal/boltprof"
	"github.com/profgen/profgen/internal/record"
)

// traceCounts are what the LBR path counts, instead of the LLVM counters,
// when the output is BOLT's: the traces of the branch stacks placed
// (boltprof.Traces, with their mispredictions).
type traceCounts struct {
	traces  boltprof.Traces
	samples uint64 // samples counted (repeat counts included)
	entries uint64 // their branch-stack entries
}

// newTraceCounts returns empty counts when an output is BOLT's, else nil.
func newTraceCounts(p *plan) *traceCounts {
	if !p.anyOutput((*output).countsTraces) {
		return nil
	}
	return &traceCounts{traces: boltprof.Traces{}}
}

// add counts a branch stack (runtime addresses, newest first) seen n
// times; delta places it in the binary.
func (t *traceCounts) add(br []record.Branch, mispred []bool, delta, n uint64) {
	t.traces.AddStack(br, mispred, delta, n)
	t.samples += n
	t.entries += n * uint64(len(br))
}

// merge adds a worker's counts (a scan by chunks).
func (t *traceCounts) merge(o *traceCounts) {
	t.traces.Add(o.traces)
	t.samples += o.samples
	t.entries += o.entries
}
