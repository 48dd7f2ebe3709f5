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
	"sync"
	"unsafe"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/mmapfile"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/record"
)

// Parallel parsing of perf script text (-j N). The main goroutine cuts the
// input into chunks at record boundaries and reads each chunk's side-band
// records alone, in order, so that it knows the per-process table at the
// start of every chunk; workers parse and aggregate the chunks, each
// placing samples with its own copy of that table. LBR counts are sums, so
// each worker keeps one Aggregator; call stacks are merged chunk by chunk
// in input order, so that objects are numbered and perf's symbol names
// kept as in one pass: the output is the same for any -j.

// errSequentialOnly stops a parallel scan that met what only the
// sequential scan handles; the input is then read again in one pass.
var errSequentialOnly = errors.New("input needs the sequential scan")

// parallelSafe reports whether the options allow the parallel scan: a
// perf script file (read again if a chunk turns out to need the
// sequential scan) and none of the options that act on records in input
// order (--kernel, --show-mmap-events).
func parallelSafe(opts Options) bool {
	return opts.PerfScript != "" && opts.PerfScript != "-" && !opts.LLVM.Kernel && !opts.LLVM.ShowMmapEvents
}

// jobs is the number of workers: -j, or one per CPU.
func (o Options) jobs() int {
	if o.Jobs > 0 {
		return o.Jobs
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

// chunkResult is what a worker found in one chunk.
type chunkResult struct {
	index  int
	stacks *aggregate.Stacks
	scan   record.Stats
	noPID  uint64 // samples without a PID (table stats)
	noMmap bool
	err    error
}

// worker parses chunks; its LBR counts accumulate over all its chunks.
type worker struct {
	lbr     *lbrPath
	dropped uint64 // --perf-event
}

func scanParallel(in *input, opts Options, bins *binaries, jobs int) (*result, error) {
	table := addrspace.New(bins.addrspaceBinary(), opts.PIDs)
	work := make(chan chunkJob, jobs)
	done := make(chan chunkResult, jobs)
	chunks, mapped, unmap := newChunker(in)
	defer unmap()
	workers := make([]*worker, jobs)
	prefetch := newSymbolPrefetch(opts, bins)
	defer prefetch.wait()
	var wg sync.WaitGroup
	for i := range workers {
		agg := aggregate.NewWithOptions(binary.NewCodeCache(bins.primary()), opts.LLVM.aggregateOptions())
		agg.ShareMemory(jobs)
		w := &worker{lbr: &lbrPath{agg: agg, leadingIP: opts.LLVM.LeadingIPOnly}}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			debug.SetPanicOnFault(true) // the mapped input may shrink
			for j := range work {
				r := w.parse(j, in.name, mapped, opts, bins)
				if r.err == nil {
					prefetch.start(w.lbr.agg)
				}
				chunks.Recycle(j.chunk)
				done <- r
			}
		}()
	}
	// At most 2 chunks per worker are read and not yet merged: memory
	// stays bounded when a chunk takes long.
	tokens := make(chan struct{}, 2*jobs)
	readErr := make(chan error, 1)
	go func() {
		debug.SetPanicOnFault(true)
		readErr <- feedChunks(chunks, in, mapped, table, work, tokens)
		close(work)
		wg.Wait()
		close(done)
	}()
	m := newChunkMerger(bins, tokens)
	for r := range done {
		m.add(r)
	}
	if err := <-readErr; err != nil {
		return nil, err
	}
	if m.err != nil {
		return nil, m.err
	}
	return m.result(workers, table, opts, bins), nil
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

// feedChunks cuts the input (mapped at mapped, or nil), keeps the table
// up to date chunk by chunk and hands each chunk over with a copy of the
// table at its start. The progress line of a mapped input moves chunk by
// chunk (a stream's counts what is read).
func feedChunks(ch *perfscript.Chunker, in *input, mapped []byte, table *addrspace.Table, work chan<- chunkJob, tokens chan<- struct{}) (err error) {
	name := in.name
	defer recoverFault(name, mapped, &err)
	pidColumn := false
	for {
		c, err := ch.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		j := chunkJob{chunk: c, table: table.Clone(), pidColumn: pidColumn}
		j.table.Stats = addrspace.Stats{}
		pidColumn = c.Events(name, pidColumn, table.Update)
		if mapped != nil {
			in.progress.Set(int64(c.Offset + len(c.Data)))
		}
		tokens <- struct{}{}
		work <- j
	}
}

// parse parses and aggregates one chunk of the input mapped at mapped
// (or nil).
func (w *worker) parse(j chunkJob, name string, mapped []byte, opts Options, bins *binaries) (r chunkResult) {
	defer recoverFault(name, mapped, &r.err)
	r = chunkResult{index: j.chunk.Index, stacks: bins.newStacks(j.table)}
	res := &result{events: eventFilter{want: opts.PerfEvent}, hybrid: newHybridPath(bins, j.table, opts.CS, usePseudoProbes(opts, bins))}
	w.lbr.table = j.table
	s := perfscript.NewChunkScanner(j.chunk, name, j.pidColumn)
	for s.Next() {
		rec := s.Record()
		if rec.Kind != record.KindSample {
			j.table.Update(rec)
			continue
		}
		if len(rec.Sample.Frames) > 0 && len(rec.Sample.Branches) > 0 {
			r.err = errSequentialOnly // hybrid: unwound in input order
			break
		}
		if err := res.add(rec, w.lbr, r.stacks, bins); err != nil {
			r.err = fmt.Errorf("%s:%d: %w", name, rec.Line, err)
			break
		}
	}
	if r.err == nil {
		r.err = s.Err()
	}
	w.dropped += res.events.dropped
	r.scan = s.Stats()
	r.noPID, r.noMmap = j.table.Stats.NoPIDSamples, j.table.Stats.NoMmapDefaulted
	return r
}

// chunkMerger adds the chunks' results in input order.
type chunkMerger struct {
	stacks  *aggregate.Stacks
	pending map[int]chunkResult
	next    int
	scan    record.Stats
	noPID   uint64
	noMmap  bool
	err     error // of the earliest chunk that failed
	errAt   int
	tokens  <-chan struct{}
}

func newChunkMerger(bins *binaries, tokens <-chan struct{}) *chunkMerger {
	return &chunkMerger{stacks: bins.newStacks(nil), pending: map[int]chunkResult{}, errAt: -1, tokens: tokens}
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
		<-m.tokens
		m.stacks.Merge(c.stacks)
		m.scan.Add(c.scan)
		m.noPID += c.noPID
		m.noMmap = m.noMmap || c.noMmap
	}
}

// result sums the workers' LBR counts and puts the merged results together.
func (m *chunkMerger) result(workers []*worker, table *addrspace.Table, opts Options, bins *binaries) *result {
	res := &result{events: eventFilter{want: opts.PerfEvent}, scan: m.scan, stacks: m.stacks.Counts(), table: table.Stats}
	res.hybrid = newHybridPath(bins, table, opts.CS, usePseudoProbes(opts, bins)) // no hybrid sample: they stop the parallel scan
	res.table.NoPIDSamples += m.noPID
	res.table.NoMmapDefaulted = res.table.NoMmapDefaulted || m.noMmap
	var sum lbrSummary
	for i, w := range workers {
		res.events.dropped += w.dropped
		s := w.lbr.summary()
		if i == 0 {
			sum.Counters = s.Counters
		} else {
			sum.Counters.Add(s.Counters)
		}
		sum.Samples += s.Samples
		sum.NoMapping += s.NoMapping
		sum.Filtered += s.Filtered
		sum.BadBranchLines += s.BadBranchLines
		sum.BadLines = append(sum.BadLines, s.BadLines...)
		sum.WithCallChain += s.WithCallChain
		sum.IPOnly += s.IPOnly
		sum.Agg.Add(s.Agg)
	}
	slices.SortFunc(sum.BadLines, func(a, b badLine) int { return cmp.Compare(a.line, b.line) })
	sum.BadLines = sum.BadLines[:min(len(sum.BadLines), maxBadLines)]
	res.lbr = &sum
	return res
}
