package driver

import (
	"context"
	"errors"
	"fmt"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/fpskid"
	"github.com/profgen/profgen/internal/record"
)

// The scan engine: one record loop (scanState.consume) for every source
// (perf script text from a file or a stream, perf's output on a perf.data
// file, perf.data read natively) that updates the per-process address
// spaces with the side-band records and routes each sample by what it
// carries: a branch stack to the LBR counting (or, in a hybrid input, to
// the unwinding), a call stack to the stack aggregation. It runs once over
// the whole input (scanSequential), or over chunks of perf script text on
// several cores (scanChunks, parallel.go); either way hybrid samples are
// handled where they are met.

// result is what the scan found.
type result struct {
	lbr    []*lbrSummary // by binary
	hybrid *hybridPath
	stacks *aggregate.StackCounts
	scan   record.Stats
	table  []addrspace.Stats // by binary
	events eventFilter
	skid   fpskid.Stats
	// precheck, when not nil, has checked the call stacks' edges during
	// the scan; repairStacks ends it.
	precheck *fpskid.Prechecker
	pf       *prefetcher
	profiles *ProfileCounts // of the --profile files, when they are the input
}

// scanInput opens the input and scans it: by chunks on several cores
// where it can, else in one pass.
func scanInput(ctx context.Context, p *plan, bins *binaries) (*result, error) {
	in, err := openInput(ctx, p, bins)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	prog := startProgress(p, in)
	defer prog.Done()
	pf := newPrefetcher(p, bins)
	if jobs := p.jobs(); jobs > 1 && chunkable(in, p) {
		return scanChunks(in, p, bins, pf, jobs)
	}
	return scanSequential(in, p, bins, pf)
}

// scanState is what the record loop feeds: the whole scan's state in one
// pass, one chunk's in a parallel scan.
type scanState struct {
	bins   *binaries
	table  *addrspace.Table
	lbr    lbrPaths
	stacks *aggregate.Stacks
	hybrid *hybridPath
	events eventFilter
	show   func(*record.Record) // --show-mmap-events, or nil
}

// recordSink is what the record loop feeds: the conversion's scanState,
// and the pre-passes that look at the input before it (the binaries a
// recording sampled, findbinaries.go; how a chunked input uses branch
// stacks, parallel.go).
type recordSink interface {
	event(rec *record.Record)        // a side-band record
	sample(rec *record.Record) error // errStopScan ends the loop early
}

// errStopScan, from a sink's sample, ends the record loop without error.
var errStopScan = errors.New("scan stopped")

// consume is the one record loop: every source (perf script text or a
// chunk of it, perf.data) and every sink go through it. Errors carry the
// input's name and the record's line.
func consume(src record.Source, name string, sink recordSink) error {
	for src.Next() {
		rec := src.Record()
		if rec.Kind != record.KindSample {
			sink.event(rec)
			continue
		}
		switch err := sink.sample(rec); {
		case errors.Is(err, errStopScan):
			return nil
		case err != nil:
			return fmt.Errorf("%s:%d: %w", sourceName(src, name), rec.Line, err)
		}
	}
	return src.Err()
}

// sourceName is the name of the file src reads, when it reads several
// (the --profile files), else name.
func sourceName(src record.Source, name string) string {
	if s, ok := src.(interface{ Name() string }); ok {
		return s.Name()
	}
	return name
}

// event updates the per-process table.
func (st *scanState) event(rec *record.Record) {
	if st.show != nil {
		st.show(rec)
	}
	st.table.Update(rec)
}

// sample routes one sample: its branch stack to the LBR counters of
// every binary (with
// --leading-ip-only, its IP alone, stack or not, as llvm-profgen 19), a
// sample without one to the call-stack aggregation.
func (st *scanState) sample(rec *record.Record) error {
	if !st.events.keep(&rec.Sample) {
		return nil
	}
	if st.lbr.ipOnly(&rec.Sample) {
		st.lbr.add(rec) // decides no mode: hybrid samples keep theirs
		return nil
	}
	if len(rec.Sample.Branches) > 0 || rec.Sample.BadBranch {
		if toLBR, err := st.hybrid.route(rec); !toLBR || err != nil {
			return err
		}
		st.lbr.add(rec)
		return nil
	}
	if len(rec.Sample.Frames) == 0 && !rec.Sample.HasIP {
		return nil
	}
	return st.stacks.Add(rec)
}

// scanSequential scans the input in one pass. The LBR counting, the
// unwinding and the prefetching run on the other cores meanwhile.
func scanSequential(in *input, p *plan, bins *binaries, pf *prefetcher) (*result, error) {
	table := bins.newTable(p)
	st := &scanState{bins: bins, table: table, stacks: bins.newStacks(table),
		lbr:    newLBRPaths(p, bins, table, pf),
		hybrid: newScanHybridPath(p, bins, table, pf),
		events: eventFilter{want: p.PerfEvent}}
	if p.LLVM.ShowMmapEvents {
		st.show = func(rec *record.Record) { p.LLVM.showMmap(p.Stdout, rec) }
	}
	pre := in.stackChecks(st.stacks, pf)
	if in.names != nil && p.anyOutput((*output).namesFrames) {
		// Only pprof names the frames outside the binaries: for an LLVM
		// profile, the symbols of the kernel (kallsyms, ~60 ms) and of
		// other DSOs are not read. An address profile may become a pprof
		// one: it keeps the names.
		st.stacks.NameWith(in.names)
	}
	src := in.records()
	err := consume(src, in.name, st)
	st.lbr.finish()
	st.hybrid.finish()
	pf.wait()
	if err != nil {
		pre.Close()
		return nil, err
	}
	if p.LLVM.Kernel && table.Stats().Mappings == 0 {
		pre.Close()
		return nil, fmt.Errorf("%s: %w: Kernel is requested, but no kernel is found in mmap events", in.name, ErrNoSamples)
	}
	res := &result{lbr: st.lbr.summaries(), hybrid: st.hybrid, stacks: st.stacks.Counts(), scan: src.Stats(), table: tableStats(table, len(bins.files)),
		events: st.events, precheck: pre, pf: pf}
	if in.profiles != nil {
		c := in.profiles.Counts()
		res.profiles, res.stacks = &c, res.stacks.TimeOrdered()
	}
	return res, nil
}

// stackChecks starts the checks of the call stacks' edges during the
// scan (nil: after it). The --profile files' objects are numbered again
// after the scan, in time order (aggregate.StackCounts.TimeOrdered), which
// the checks' stacks would not follow: they are checked after it.
func (in *input) stackChecks(stacks *aggregate.Stacks, pf *prefetcher) *fpskid.Prechecker {
	if in.profiles != nil {
		stacks.KeepEarliest()
		return nil
	}
	pre := pf.stackChecks()
	if pre != nil {
		stacks.WatchNewStacks(precheckBatch, pre.Add)
	}
	return pre
}

// tableStats are what table saw of each of n binaries.
func tableStats(table *addrspace.Table, n int) []addrspace.Stats {
	out := make([]addrspace.Stats, n)
	for i := range out {
		out[i] = table.StatsOf(i)
	}
	return out
}

// eventFilter keeps the samples of one event (--perf-event).
type eventFilter struct {
	want    string
	dropped uint64
}

func (f *eventFilter) keep(s *record.Sample) bool {
	if f.want == "" || s.Event == f.want || s.Event == "" {
		return true
	}
	f.dropped += s.Count
	return false
}
