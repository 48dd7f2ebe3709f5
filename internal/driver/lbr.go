package driver

import (
	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/perfscript"
)

// lbrPath places branch-stack samples in their process's address space and
// counts them (on another goroutine, see counter).
type lbrPath struct {
	table   *addrspace.Table
	agg     *aggregate.Aggregator
	counter *counter // nil: samples are counted at once (a parallel worker)
	sum     lbrSummary
}

// lbrSummary is what happened to every branch-stack sample.
type lbrSummary struct {
	Counters *aggregate.Counters

	Samples        uint64 // samples with a branch stack (repeat counts included)
	NoMapping      uint64 // samples of a process with no known mapping of the binary
	Filtered       uint64 // samples of processes not asked for with --pid
	BadBranchLines uint64 // samples whose branch stack had a malformed entry (cut there)
	WithCallChain  uint64 // LBR samples that also carry a call chain (perf -g -b)
	Agg            aggregate.Stats
}

func newLBR(bin Binary, table *addrspace.Table) *lbrPath {
	agg := aggregate.New(bin)
	return &lbrPath{table: table, agg: agg, counter: newCounter(agg)}
}

func (l *lbrPath) add(rec *perfscript.Record) {
	smp := &rec.Sample
	l.sum.Samples += smp.Count
	if smp.BadBranch {
		l.sum.BadBranchLines++
	}
	if len(smp.Frames) > 0 {
		l.sum.WithCallChain += smp.Count
	}
	if len(smp.Branches) == 0 {
		return
	}
	delta, why := l.table.Delta(rec.HasPID, rec.PID)
	switch why {
	case addrspace.NoMapping:
		l.sum.NoMapping += smp.Count
		return
	case addrspace.FilteredPID:
		l.sum.Filtered += smp.Count
		return
	}
	if l.counter == nil {
		l.agg.Add(smp.Branches, delta, smp.Count)
		return
	}
	l.counter.Add(smp.Branches, delta, smp.Count)
}

// finish waits for the counting to end; it may be called more than once.
func (l *lbrPath) finish() {
	if l.counter != nil {
		l.counter.Finish()
		l.counter = nil
	}
}

func (l *lbrPath) summary() *lbrSummary {
	l.sum.Counters = l.agg.Counters()
	l.sum.Agg = l.agg.Stats
	return &l.sum
}
