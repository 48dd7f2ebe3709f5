package perfdata

import (
	"fmt"

	"github.com/profgen/profgen/internal/perfdatafile"
	"github.com/profgen/profgen/internal/record"
)

// Native reads a perf.data file without perf and yields the records that
// the perf script parser reads from `perf script ScriptArgs(c)` on the same
// file: the same kinds, fields and order, with call-chain addresses
// DSO-relative where perf prints them so, and the fields perf would not
// print left empty. Use it like perfscript.Scanner (Next, Record, Err,
// Stats).
type Native struct {
	r       *perfdatafile.Reader
	content Content
	names   SymbolNamer
	// deferChain leaves call-chain frames unnamed (DeferChainSymbols).
	deferChain bool
	ids        map[string]string // build ids by DSO path
	// releasedAt is the read offset when pages of the mapped file were
	// last released.
	releasedAt int64
	mc         *machine
	q          *orderQueue
	rec        record.Record
	smp        perfdatafile.Sample
	n          int // records delivered
	err        error
	eof        bool
	stats      NativeStats
}

// NativeStats counts what the native reader saw.
type NativeStats struct {
	Records    int // raw records read (decompressed ones included)
	Samples    int
	Compressed bool
}

// SymbolNamer names the symbol at a DSO-relative address, as perf script
// prints it (sym field); "" when unknown. Kernel addresses are absolute.
// Prefetch says a DSO (or the kernel) was mapped: its symbols may be
// loaded in the background.
type SymbolNamer interface {
	Name(dso string, kernel bool, addr uint64) string
	Prefetch(dso string, kernel bool)
}

// maxStack is perf script's default --max-stack (PERF_MAX_STACK_DEPTH):
// deeper call chains are cut there.
const maxStack = 127

// OpenNative opens a perf.data file (file or pipe mode) for native
// reading; c says which fields perf script would print (ScriptArgs).
// Symbols print as [unknown] unless SetSymbolNamer gives a namer.
func OpenNative(path string, c Content) (*Native, error) {
	r, err := perfdatafile.Open(path)
	if err != nil {
		return nil, err
	}
	return NewNative(r, c)
}

// NewNative reads records from r.
func NewNative(r *perfdatafile.Reader, c Content) (*Native, error) {
	for _, a := range r.Attrs {
		if err := checkAttr(a); err != nil {
			r.Close()
			return nil, fmt.Errorf("%s: %w", r.Name(), err)
		}
	}
	return &Native{r: r, content: c, mc: newMachine(), q: newOrderQueue()}, nil
}

// SetSymbolNamer sets what names symbols (perf script's sym field).
func (n *Native) SetSymbolNamer(s SymbolNamer) { n.names = s }

// DeferChainSymbols leaves the sym field of the call-chain frames that have
// a mapping empty, and loads no symbols when mappings appear: the reader
// of the records names the frames it needs itself (Frame.Addr of the
// Frame.DSO, as perf would name it: see aggregate.Stacks.NameWith). Frames
// without a mapping still print [unknown]; so do all when no namer is set.
func (n *Native) DeferChainSymbols() { n.deferChain = true }

// checkAttr refuses what perf script would print in a way the native
// reader does not reproduce.
func checkAttr(a *perfdatafile.Attr) error {
	if a.SampleType&perfdatafile.SampleRegsUser != 0 && a.SampleType&perfdatafile.SampleStackUser != 0 && a.SampleType&perfdatafile.SampleCallchain != 0 {
		return fmt.Errorf("event %s was recorded with --call-graph=dwarf: perf script unwinds its stacks; use --use-perf-script", a.Name)
	}
	if a.BranchSampleType&perfdatafile.BranchCallStack != 0 {
		return fmt.Errorf("event %s was recorded with --call-graph=lbr: perf script merges its LBR call stacks; use --use-perf-script", a.Name)
	}
	return nil
}

// Close releases the file.
func (n *Native) Close() error { return n.r.Close() }

// Record returns the current record; its slices are reused by Next.
func (n *Native) Record() *record.Record { return &n.rec }

// Err returns the first error, nil at the end.
func (n *Native) Err() error { return n.err }

// Stats returns what the perf script parser would have skipped: nothing,
// as perf script prints only the records asked for.
func (n *Native) Stats() record.Stats { return record.Stats{Lines: n.n} }

// NativeStats returns counts of the raw records.
func (n *Native) NativeStats() NativeStats { return n.stats }

// Next advances to the next record perf script would print.
func (n *Native) Next() bool {
	for n.err == nil {
		if e, ok := n.q.pop(); ok {
			if n.deliver(e) {
				return true
			}
			continue
		}
		if n.eof {
			return false
		}
		n.read()
	}
	return false
}

// read reads one raw record: it is queued, delivered at once (kept as
// n.now), or ends a round.
func (n *Native) read() {
	r := n.r
	if !r.Next() {
		if n.err = r.Err(); n.err == nil {
			n.eof = true
			n.q.final()
		}
		return
	}
	rec := r.Record()
	n.stats.Records++
	if rec.Offset-n.releasedAt > releaseEvery {
		n.release(rec.Offset)
	}
	n.stats.Compressed = n.stats.Compressed || rec.InCompressed
	switch rec.Type {
	case perfdatafile.RecordFinishedRound:
		n.q.round()
		return
	case perfdatafile.RecordSample, perfdatafile.RecordMmap, perfdatafile.RecordMmap2, perfdatafile.RecordComm,
		perfdatafile.RecordFork, perfdatafile.RecordExit:
	default:
		return // not printed, and no part of perf's state that printing uses
	}
	t, err := n.timeOf(rec)
	if err != nil {
		n.err = err
		return
	}
	e := queued{time: t, data: rec.Data, offset: rec.Offset, inCompressed: rec.InCompressed, inner: rec.Inner}
	if t == 0 || t == ^uint64(0) {
		n.q.pushNow(e)
		return
	}
	n.q.push(e, !rec.Stable)
}

// timeOf is the record's time for ordering: the sample's TIME, or the
// sample id's; 0 when it has none.
func (n *Native) timeOf(rec *perfdatafile.Record) (uint64, error) {
	if rec.Type == perfdatafile.RecordSample {
		t, _, err := n.r.SampleTime(rec)
		return t, err
	}
	id, err := n.r.ParseSampleID(rec)
	if err != nil || !id.HasTime {
		return 0, err
	}
	return id.Time, nil
}

// deliver applies a record to the machine state and fills n.rec when
// perf script prints it.
func (n *Native) deliver(e queued) bool {
	rec := perfdatafile.Record{Type: le32(e.data), Misc: le16(e.data[4:]), Data: e.data, Offset: e.offset, InCompressed: e.inCompressed, Inner: e.inner}
	n.n++
	n.rec = record.Record{Line: n.n, Sample: record.Sample{Branches: n.rec.Sample.Branches[:0], Mispredicted: n.rec.Sample.Mispredicted[:0], Frames: n.rec.Sample.Frames[:0]}}
	var err error
	switch rec.Type {
	case perfdatafile.RecordSample:
		err = n.sample(&rec)
	case perfdatafile.RecordMmap, perfdatafile.RecordMmap2:
		err = n.mmap(&rec)
	case perfdatafile.RecordComm:
		err = n.comm(&rec)
	case perfdatafile.RecordFork, perfdatafile.RecordExit:
		err = n.task(&rec)
	}
	if err != nil {
		n.err = err
		return false
	}
	return true
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func le16(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }

// BuildIDs returns the build ids recorded for DSOs, by path: those of the
// BUILD_ID feature, and, as records are read, those MMAP2 records carry
// (perf record on kernels that put them there). The map is updated as
// records are read. In pipe mode the BUILD_ID records come at the end of
// the stream.
func (n *Native) BuildIDs() map[string]string {
	if n.ids == nil {
		n.ids = map[string]string{}
		for _, b := range n.r.BuildIDs {
			if len(b.ID) > 0 {
				n.ids[b.Path] = b.Hex()
			}
		}
	}
	return n.ids
}

// Cmdline returns perf record's command line (the CMDLINE feature): the
// perf executable, then its arguments; nil when the file has none (in
// pipe mode, until the feature's record is read).
func (n *Native) Cmdline() []string { return n.r.Cmdline }

// MmapBuildIDs reports whether the MMAP2 records carry build ids (perf
// record --buildid-mmap): perf then writes no BUILD_ID feature, and the
// build ids are only known as the records are read.
func (n *Native) MmapBuildIDs() bool {
	for _, a := range n.r.Attrs {
		if a.BuildIDMmap() {
			return true
		}
	}
	return false
}

// Progress returns how far the file is read: the byte offset of the last
// record read, and the file's size (-1 for a stream).
func (n *Native) Progress() (done, total int64) { return n.r.Progress() }

// releaseEvery is how often (bytes read) the pages of the mapped file
// that no queued record needs are released, so that the resident memory
// stays small however large the file.
const releaseEvery = 32 << 20

// release lets the pages before the first queued record leave memory.
func (n *Native) release(readAt int64) {
	n.releasedAt = readAt
	n.r.ReleaseBefore(n.q.minOffset(readAt))
}
