package driver

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"unsafe"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/mmapfile"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/record"
)

// The scan by chunks (-j N). The feeder cuts perf script text into chunks
// at record boundaries and reads each chunk's side-band records alone, in
// order, so that it knows the per-process table at the start of every
// chunk; the workers run the record loop on the chunks, each placing
// samples with its own copy of that table. LBR counts are sums, so each
// worker keeps one Aggregator; call stacks are merged chunk by chunk in
// input order, so that objects are numbered and perf's symbol names kept
// as in one pass: the output is the same for any -j.
//
// Hybrid samples are unwound in input order: once the first sample with a
// branch stack turns out to carry a call stack too, the feeder runs the
// record loop on each chunk itself, with the one hybrid path (whose
// unwinding runs on the other cores), instead of handing it over.

// chunkable reports whether the input can be scanned by chunks: perf
// script text, without the options that act on records in input order
// (--kernel, --show-mmap-events).
func chunkable(in *input, p *plan) bool {
	return in.native == nil && in.profiles == nil && !p.LLVM.Kernel && !p.LLVM.ShowMmapEvents
}

// jobs is the number of workers: -j, or one per CPU.
func (p *plan) jobs() int {
	if p.Jobs > 0 {
		return p.Jobs
	}
	return runtime.GOMAXPROCS(0)
}

// chunkSize is the size of a chunk of text (a variable for the tests).
var chunkSize = 512 << 10

type chunkJob struct {
	chunk     perfscript.Chunk
	table     *addrspace.Table // at the chunk's start
	pidColumn bool
}

// chunkResult is what the record loop found in one chunk.
type chunkResult struct {
	job    *chunkJob
	index  int
	stacks *aggregate.Stacks
	scan   record.Stats
	table  []addrspace.Stats // by binary: samples without a PID (a worker's table)
	err    error
}

// worker is one parsing goroutine; its LBR counts accumulate over all its
// chunks.
type worker struct {
	lbr     lbrPaths
	dropped uint64 // --perf-event
}

// chunkScan is the state of a scan by chunks.
type chunkScan struct {
	in      *input
	p       *plan
	bins    *binaries
	pf      *prefetcher
	mapped  []byte
	chunks  *perfscript.Chunker
	table   *addrspace.Table // the feeder's, up to date at the chunk it cuts
	q       *batchQueue[chunkJob]
	done    chan chunkResult
	workers []*worker
	// The feeder's own record loop, once the input turned out hybrid.
	self    *worker
	hybrid  *hybridPath
	decided bool // the first sample with a branch stack is met
	inOrder bool // ... and it has a call stack: the feeder scans
}

func scanChunks(in *input, p *plan, bins *binaries, pf *prefetcher, jobs int) (*result, error) {
	chunks, mapped, unmap := newChunker(in)
	defer unmap()
	table := bins.newTable(p)
	c := &chunkScan{in: in, p: p, bins: bins, pf: pf, mapped: mapped, chunks: chunks, table: table,
		done:   make(chan chunkResult, 2*jobs),
		hybrid: newScanHybridPath(p, bins, table, pf)}
	for range jobs {
		c.workers = append(c.workers, newWorker(p, bins, jobs))
	}
	// At most 2 chunks per worker are read and not yet merged: memory
	// stays bounded when a chunk takes long.
	c.q = newBatchQueue(jobs, 2*jobs, true, func() *chunkJob { return &chunkJob{} }, c.work)
	readErr := make(chan error, 1)
	go func() {
		debug.SetPanicOnFault(true) // the mapped input may shrink
		readErr <- c.feed()
		c.q.Close()
		close(c.done)
	}()
	m := newChunkMerger(bins, c.q)
	for r := range c.done {
		m.add(r)
	}
	c.hybrid.finish()
	pf.wait()
	if err := cmp.Or(<-readErr, m.err); err != nil {
		return nil, err
	}
	return c.result(m), nil
}

func newWorker(p *plan, bins *binaries, jobs int) *worker {
	w := &worker{lbr: make(lbrPaths, len(bins.files))}
	for i, f := range bins.files {
		w.lbr[i] = newLBRPath(p, i, f)
		w.lbr[i].agg.ShareMemory(jobs)
	}
	return w
}

// setTable makes the worker's paths place samples with table.
func (w *worker) setTable(table *addrspace.Table) {
	for _, l := range w.lbr {
		l.table = table
	}
}

// work is worker i's record loop on a chunk.
func (c *chunkScan) work(i int, j *chunkJob) {
	debug.SetPanicOnFault(true) // the mapped input may shrink
	w := c.workers[i]
	hybrid := newHybridPath(c.bins, j.table, &c.p.CS, false, c.pf)
	hybrid.mode = modeLBR // the feeder scans the chunks of a hybrid input
	w.setTable(j.table)
	r := c.scanChunk(j, w, hybrid)
	if r.err == nil {
		for _, l := range w.lbr {
			c.pf.lbrRanges(l.bin, l.agg)
		}
	}
	c.done <- r
}

// scanChunk runs the record loop on one chunk of the input mapped at
// mapped (or nil).
func (c *chunkScan) scanChunk(j *chunkJob, w *worker, hybrid *hybridPath) (r chunkResult) {
	defer c.chunks.Recycle(j.chunk)
	r = chunkResult{job: j, index: j.chunk.Index, stacks: c.bins.newStacks(j.table)}
	defer recoverFault(c.in.name, c.mapped, &r.err)
	st := &scanState{bins: c.bins, table: j.table, lbr: w.lbr, stacks: r.stacks, hybrid: hybrid,
		events: eventFilter{want: c.p.PerfEvent}}
	s := perfscript.NewChunkScanner(j.chunk, c.in.name, j.pidColumn)
	r.err = consume(s, c.in.name, st)
	w.dropped += st.events.dropped
	r.scan = s.Stats()
	if j.table != c.table { // the feeder's table counts for itself
		r.table = tableStats(j.table, len(c.bins.files))
	}
	return r
}

// feed cuts the input, keeps the table up to date chunk by chunk and hands
// each chunk over with a copy of the table at its start, or scans it
// itself once the input is hybrid. The progress line of a mapped input
// moves chunk by chunk (a stream's counts what is read).
func (c *chunkScan) feed() (err error) {
	name := c.in.name
	defer recoverFault(name, c.mapped, &err)
	pidColumn := false
	for {
		ch, err := c.chunks.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		j := c.q.Free()
		*j = chunkJob{chunk: ch, pidColumn: pidColumn}
		c.decide(ch, pidColumn)
		if c.inOrder {
			pidColumn = ch.Events(name, pidColumn, func(*record.Record) {})
			j.table = c.table
			if r := c.scanChunk(j, c.feederWorker(), c.hybrid); c.send(r) {
				return nil
			}
		} else {
			j.table = c.table.Clone()
			j.table.ResetStats()
			pidColumn = ch.Events(name, pidColumn, c.table.Update)
			c.q.Send(j)
		}
		if c.mapped != nil {
			c.in.progress.Set(int64(ch.Offset + len(ch.Data)))
		}
	}
}

// feederWorker is the feeder's own state, made when it first scans a
// chunk.
func (c *chunkScan) feederWorker() *worker {
	if c.self == nil {
		c.self = newWorker(c.p, c.bins, len(c.workers))
		c.self.setTable(c.table)
	}
	return c.self
}

// send hands over the result of a chunk the feeder scanned; it reports
// whether the scan stops there (an error).
func (c *chunkScan) send(r chunkResult) bool {
	c.done <- r
	return r.err != nil
}

// decide looks, until it is found, for the input's first sample with a
// branch stack (of the event asked for): as in one pass, it decides how
// the input's branch stacks are used (hybridPath.route). A chunk without
// a brstack entry is not parsed here.
func (c *chunkScan) decide(ch perfscript.Chunk, pidColumn bool) {
	if c.decided || !perfscript.HoldsBranchStack(ch.Data) {
		return
	}
	first := &firstBranchStack{events: eventFilter{want: c.p.PerfEvent}}
	_ = consume(perfscript.NewChunkScanner(ch, c.in.name, pidColumn), c.in.name, first) // a bad record: the chunk's scan says it
	// For BOLT, hybrid samples are branch stacks: the workers scan them.
	c.decided, c.inOrder = first.found, first.hybrid && c.hybrid.mode != modeLBR
}

// firstBranchStack finds the first sample with a branch stack.
type firstBranchStack struct {
	events        eventFilter
	found, hybrid bool
}

func (f *firstBranchStack) event(*record.Record) {}

func (f *firstBranchStack) sample(rec *record.Record) error {
	smp := &rec.Sample
	if (len(smp.Branches) > 0 || smp.BadBranch) && f.events.keep(smp) {
		f.found, f.hybrid = true, len(smp.Frames) > 0
		return errStopScan
	}
	return nil
}

// newChunker cuts the input into chunks: parts of the file mapped into
// memory where it is a regular file (no read and no copy of the text:
// about 0.2 ms a megabyte of CPU), else read into buffers. mapped is the
// mapping (nil for a stream); unmap, once no chunk is in use, releases it.
func newChunker(in *input) (chunks *perfscript.Chunker, mapped []byte, unmap func()) {
	if f := in.file; f != nil {
		if data, err := mmapfile.Map(f); err == nil {
			if afterMapping != nil {
				afterMapping(f)
			}
			release := func(b []byte) { _ = mmapfile.Release(b) }
			return perfscript.NewChunkerOf(data, chunkSize, release), data, func() { _ = mmapfile.Unmap(data) }
		}
	}
	return perfscript.NewChunker(in.Reader, chunkSize), nil, func() {}
}

// afterMapping, when not nil, is called with a perf script file once it
// is mapped (a test shrinks it there).
var afterMapping func(*os.File)

// errInputShrank is the error of a mapped input that got shorter while it
// was read: what the mapping held past its new end cannot be read.
var errInputShrank = errors.New("the file got shorter while it was read (written again by another program?)")

// recoverFault, deferred on a goroutine that reads the input name mapped
// at mapped with debug.SetPanicOnFault, turns the fault of a read in it
// past the file's end into *err; other panics go on (a fault elsewhere,
// in a mapped binary, too).
func recoverFault(name string, mapped []byte, err *error) {
	r := recover()
	if r == nil {
		return
	}
	if f, ok := r.(interface{ Addr() uintptr }); ok && len(mapped) > 0 {
		if start := uintptr(unsafe.Pointer(&mapped[0])); f.Addr() >= start && f.Addr()-start < uintptr(len(mapped)) {
			*err = fmt.Errorf("%s: %w", name, errInputShrank)
			return
		}
	}
	panic(r)
}

// chunkMerger adds the chunks' results in input order and recycles their
// slots.
type chunkMerger struct {
	stacks  *aggregate.Stacks
	pending map[int]chunkResult
	next    int
	scan    record.Stats
	table   []addrspace.Stats // the workers' counts of samples without a PID, by binary
	err     error             // of the earliest chunk that failed
	errAt   int
	q       *batchQueue[chunkJob]
}

func newChunkMerger(bins *binaries, q *batchQueue[chunkJob]) *chunkMerger {
	return &chunkMerger{stacks: bins.newStacks(nil), pending: map[int]chunkResult{}, errAt: -1, q: q,
		table: make([]addrspace.Stats, len(bins.files))}
}

func (m *chunkMerger) add(r chunkResult) {
	if r.err != nil && (m.errAt < 0 || r.index < m.errAt) {
		m.err, m.errAt = r.err, r.index
	}
	m.pending[r.index] = r
	for {
		c, ok := m.pending[m.next]
		if !ok {
			return
		}
		delete(m.pending, m.next)
		m.next++
		m.q.Recycle(c.job)
		m.stacks.Merge(c.stacks)
		m.scan.Add(c.scan)
		for i, t := range c.table {
			m.table[i].NoPIDSamples += t.NoPIDSamples
			m.table[i].NoMmapDefaulted = m.table[i].NoMmapDefaulted || t.NoMmapDefaulted
		}
	}
}

// result sums the workers' LBR counts and puts the merged results together.
func (c *chunkScan) result(m *chunkMerger) *result {
	res := &result{events: eventFilter{want: c.p.PerfEvent}, scan: m.scan, stacks: m.stacks.Counts(),
		table: tableStats(c.table, len(c.bins.files)), hybrid: c.hybrid, pf: c.pf}
	for i := range res.table {
		res.table[i].NoPIDSamples += m.table[i].NoPIDSamples
		res.table[i].NoMmapDefaulted = res.table[i].NoMmapDefaulted || m.table[i].NoMmapDefaulted
	}
	workers := c.workers
	if c.self != nil {
		workers = append([]*worker{c.self}, workers...)
	}
	res.lbr = make([]*lbrSummary, len(c.bins.files))
	for _, w := range workers {
		res.events.dropped += w.dropped
		for i, l := range w.lbr {
			if res.lbr[i] == nil {
				res.lbr[i] = l.summary()
			} else {
				res.lbr[i].merge(l.summary())
			}
		}
	}
	for _, s := range res.lbr {
		slices.SortFunc(s.BadLines, func(a, b badLine) int { return cmp.Compare(a.line, b.line) })
		s.BadLines = s.BadLines[:min(len(s.BadLines), maxBadLines)]
	}
	return res
}
