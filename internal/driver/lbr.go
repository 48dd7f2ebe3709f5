package driver

import (
	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/record"
)

// lbrPath places branch-stack samples in their process's address space and
// counts them (on another goroutine, see counter): into the LLVM counters,
// and for BOLT output into perf2bolt's traces (an output of either kind,
// or outputs of both: --also). It counts for one
// binary; LBR input of several binaries has a path per binary (lbrPaths),
// each placing every sample at its own binary's base, as the reference
// tools run on that binary alone do.
type lbrPath struct {
	bin     int // the binary counted for (index in binaries.files and the table's)
	table   *addrspace.Table
	agg     *aggregate.Aggregator
	llvm    bool         // agg counts: an output is made of the LLVM counters (countsLLVM)
	traces  *traceCounts // nil: no output is BOLT's
	counter *counter     // nil: samples are counted at once (a parallel worker)
	sum     lbrSummary
	// leadingIP (--leading-ip-only): a sample is its IP alone.
	leadingIP bool
	ipEntry   []record.Branch
}

// lbrSummary is what happened to every branch-stack sample.
type lbrSummary struct {
	Counters *aggregate.Counters
	Traces   *traceCounts // for BOLT output (then Counters are empty), else nil

	Samples        uint64    // samples with a branch stack (repeat counts included)
	IPOnly         uint64    // of them, samples without one counted by their IP (--leading-ip-only)
	NoMapping      uint64    // samples of a process with no known mapping of the binary
	Filtered       uint64    // samples of processes not asked for with --pid
	BadBranchLines uint64    // samples whose branch stack had a malformed entry (cut there)
	BadLines       []badLine // the first maxBadLines of them
	WithCallChain  uint64    // LBR samples that also carry a call chain (perf -g -b)
	Agg            aggregate.Stats
}

// badLine is a line with a malformed branch entry, for llvm-profgen's
// "Invalid address in LBR record at line N" warning.
type badLine struct {
	line int
	text string
}

// maxBadLines bounds the malformed lines named one by one.
const maxBadLines = 100

// lbrPaths are the LBR paths of a scan, one per profiled binary, the
// primary one first: each sample with a branch stack goes to every one.
type lbrPaths []*lbrPath

// newLBRPaths returns the paths of the sequential scan: each counts on
// another goroutine, and pf reads DWARF meanwhile.
func newLBRPaths(p *plan, bins *binaries, table *addrspace.Table, pf *prefetcher) lbrPaths {
	paths := make(lbrPaths, len(bins.files))
	for i, f := range bins.files {
		l := newLBRPath(p, i, f)
		l.table, l.counter = table, newCounter(i, l.countedAgg(), l.traces, pf)
		paths[i] = l
	}
	return paths
}

// newLBRPath returns binary i's path, counting what the outputs need.
func newLBRPath(p *plan, i int, f Binary) *lbrPath {
	agg := aggregate.NewWithOptions(binary.NewCodeCache(f), p.LLVM.aggregateOptions())
	return &lbrPath{bin: i, agg: agg, llvm: p.anyOutput((*output).countsLLVM), traces: newTraceCounts(p), leadingIP: p.LLVM.LeadingIPOnly}
}

// countedAgg is the aggregator samples are counted into, nil when no
// output takes the LLVM counters.
func (l *lbrPath) countedAgg() *aggregate.Aggregator {
	if !l.llvm {
		return nil
	}
	return l.agg
}

// add gives a sample to every binary's path.
func (ls lbrPaths) add(rec *record.Record) {
	for _, l := range ls {
		l.add(rec)
	}
}

// ipOnly is lbrPath.ipOnly, the same for every path.
func (ls lbrPaths) ipOnly(smp *record.Sample) bool { return ls[0].ipOnly(smp) }

// finish waits for every path's counting to end.
func (ls lbrPaths) finish() {
	for _, l := range ls {
		l.finish()
	}
}

// summaries are the paths' summaries, by binary.
func (ls lbrPaths) summaries() []*lbrSummary {
	out := make([]*lbrSummary, len(ls))
	for i, l := range ls {
		out[i] = l.summary()
	}
	return out
}

func (l *lbrPath) add(rec *record.Record) {
	smp := &rec.Sample
	l.sum.Samples += smp.Count
	if smp.BadBranch && !(l.leadingIP && smp.HasIP) {
		l.sum.BadBranchLines++
		if len(l.sum.BadLines) < maxBadLines {
			l.sum.BadLines = append(l.sum.BadLines, badLine{smp.BadBranchLine, smp.BadBranchText})
		}
	}
	if len(smp.Frames) > 0 {
		l.sum.WithCallChain += smp.Count
	}
	if len(smp.Branches) == 0 {
		if !l.ipOnly(smp) {
			return
		}
		l.sum.IPOnly += smp.Count
	}
	delta, why := l.table.DeltaOf(l.bin, rec.HasPID, rec.PID)
	switch why {
	case addrspace.NoMapping:
		l.sum.NoMapping += smp.Count
		return
	case addrspace.FilteredPID:
		l.sum.Filtered += smp.Count
		return
	}
	l.count(smp, delta)
}

// count counts a placed sample at once, or hands it to the counter.
func (l *lbrPath) count(smp *record.Sample, delta uint64) {
	br := l.branches(smp)
	var mispred []bool
	if l.traces != nil {
		mispred = smp.Mispredicted
	}
	if l.counter != nil {
		l.counter.Add(br, mispred, delta, smp.Count)
		return
	}
	if l.traces != nil {
		l.traces.add(br, mispred, delta, smp.Count)
	}
	if l.llvm {
		l.agg.Add(br, delta, smp.Count)
	}
}

// merge adds another worker's summary of the same binary (a scan by
// chunks); the bad lines are sorted and cut by the caller.
func (s *lbrSummary) merge(o *lbrSummary) {
	s.Counters.Add(o.Counters)
	if s.Traces != nil {
		s.Traces.merge(o.Traces)
	}
	s.Samples += o.Samples
	s.NoMapping += o.NoMapping
	s.Filtered += o.Filtered
	s.BadBranchLines += o.BadBranchLines
	s.BadLines = append(s.BadLines, o.BadLines...)
	s.WithCallChain += o.WithCallChain
	s.IPOnly += o.IPOnly
	s.Agg.Add(o.Agg)
}

// used is the number of samples counted: as BOLT's traces when they are
// counted, else into the LLVM counters.
func (s *lbrSummary) used() uint64 { return s.usedBy(s.Traces != nil) }

// usedBy is the number of samples counted as traces, or into the LLVM
// counters.
func (s *lbrSummary) usedBy(traces bool) uint64 {
	if traces {
		return s.Traces.samples
	}
	return s.Agg.Samples
}

// branches is what of the sample is counted: its branch stack, or with
// --leading-ip-only its IP as a one-entry stack (its newest branch when it
// has no IP, as llvm-profgen 19).
func (l *lbrPath) branches(smp *record.Sample) []record.Branch {
	switch {
	case !l.leadingIP:
		return smp.Branches
	case smp.HasIP:
		l.ipEntry = append(l.ipEntry[:0], record.Branch{From: smp.IP, To: smp.IP})
		return l.ipEntry
	}
	return smp.Branches[:1]
}

// ipOnly reports whether smp is counted by its IP alone although it has
// no branch stack (--leading-ip-only): llvm-profgen 19 then reads the IP
// of every sample line and nothing after it.
func (l *lbrPath) ipOnly(smp *record.Sample) bool {
	return l.leadingIP && smp.HasIP && len(smp.Branches) == 0 && len(smp.Frames) == 0
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
	l.sum.Traces = l.traces
	l.sum.Agg = l.agg.Stats
	return &l.sum
}
