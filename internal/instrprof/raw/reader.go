// Package raw reads LLVM raw instrumentation profiles (.profraw), format
// versions 8 (LLVM 14–17), 9 (LLVM 18) and 10 (LLVM 19–22), of 64- and
// 32-bit programs of either byte order: header, binary ids, per-function data records, counters,
// MC/DC bitmap bytes, names (zlib or plain) and value-profile data; one
// file may hold several concatenated profiles. Correlated profiles
// (counters only) take their records and names from the binary: its
// __llvm_covdata and __llvm_covnames sections (-profile-correlate=binary)
// or its DWARF (-profile-correlate=debug-info); see Correlation. Records
// flow out through a callback as instrprof.Records.
package raw

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/quote"
)

// ErrNeedBinary marks a binary-correlated raw profile read without a
// Correlation.
var ErrNeedBinary = errors.New("binary-correlated raw profile (counters only, no function records): pass --binary-file=<the unstripped instrumented binary>, --debug-info=<its debug info> or --correlate with --debug-file-directory or --debuginfod")

// ErrNotCorrelated marks a raw profile with its own records read with a
// Correlation (llvm-profdata's words).
var ErrNotCorrelated = errors.New("debug info/binary for correlation is not necessary")

// Info describes what one file held.
type Info struct {
	Version   int
	Kind      instrprof.Kind
	BinaryIDs [][]byte
	Records   int
	Profiles  int // concatenated profiles in the file
	// Trace lists, for a temporal profile, the functions called, by the
	// timestamp each one's first counter holds.
	Trace []uint64
	// VTableNames are the names of the profiled vtables (v10 on).
	VTableNames []string
	// LargeCounter is the file's first counter above 2^56, which LLVM's
	// reader takes for a sign of corruption: it reads the record as it is
	// and warns (llvm-profdata merge counts the file as failed for
	// --failure-mode; show says nothing). Nil when there is none.
	LargeCounter *instrprof.FormatError
}

// Reader reads raw profiles. It keeps buffers between files, so one Reader
// serves one goroutine; Names may be shared.
type Reader struct {
	// Correlation supplies records and names for correlated raws.
	Correlation *Correlation
	// Lookup, when set and Correlation is not, finds each profile's
	// Correlation by the binary ids the profile holds (llvm-profdata's
	// --debuginfod and --debug-file-directory).
	Lookup func(ids [][]byte) (*Correlation, error)
	// Names caches decoded names sections across files of one binary.
	Names *NameCache

	buf    []byte
	rec    instrprof.Record
	recs   []dataRecord
	counts []uint64
	stamps []stamp
	addrs  []addrRef
	vtabs  []vtable
	values instrprof.ValueArena
	// The names of the last profile's records by position, and their table.
	posTable *nameTable
	posRefs  []uint64
	posNames []string
	// large is the last record's first counter above maxCounter, or nil.
	large *instrprof.FormatError
}

// Func is called for every record read, with the record's name reference
// and the file offset of its data record. The record's slices are the
// Reader's (bitmap bytes: the buffer read) and stay valid until the next
// Read, so that a caller can keep the records of a file without copying.
type Func func(rec *instrprof.Record, ref uint64, off int64) error

// ReadFile reads a whole raw profile of size bytes from ra.
func (r *Reader) ReadFile(file string, ra io.ReaderAt, size int64, fn Func) (Info, error) {
	if cap(r.buf) < int(size) {
		r.buf = make([]byte, size)
	}
	r.buf = r.buf[:size]
	if n, err := ra.ReadAt(r.buf, 0); n < int(size) {
		return Info{}, fmt.Errorf("%s: %w", file, err)
	}
	return r.Read(file, r.buf, fn)
}

// Read reads the raw profile(s) in buf.
func (r *Reader) Read(file string, buf []byte, fn Func) (Info, error) {
	var info Info
	d := &instrprof.Decoder{File: file, Buf: buf}
	r.stamps = r.stamps[:0]
	r.counts = r.counts[:0]
	r.values.Reset()
	for {
		if err := r.readOne(d, &info, fn); err != nil {
			return info, err
		}
		if len(r.stamps) > 0 {
			info.Trace = trace(r.stamps)
		}
		info.Profiles++
		for d.Off < len(buf) && buf[d.Off] == 0 {
			d.Off++
		}
		if d.Off == len(buf) {
			return info, nil
		}
		if d.Off%8 != 0 {
			return info, &instrprof.FormatError{File: file, Offset: d.Pos(), Msg: "trailing bytes after the profile are not a profile"}
		}
	}
}

// profile is the state of one profile being read.
type profile struct {
	h    *Header
	l    layout
	base int // offset of the header in the buffer
	// recs are the data records (from the file or the binary).
	recs        []dataRecord
	dataFileOff int64
	names       *nameTable
	correlated  bool
	recSize     int      // bytes of one data record
	binaryIDs   [][]byte // this profile's
}

func (r *Reader) readOne(d *instrprof.Decoder, info *Info, fn Func) error {
	p := &profile{base: d.Off}
	h, err := readHeader(d)
	if err != nil {
		return err
	}
	p.h = h
	p.recSize = h.recordSize()
	if err := r.checkHeader(d, p, info); err != nil {
		return err
	}
	if err := r.readBinaryIDs(d, p, info); err != nil {
		return err
	}
	if err := r.setupRecords(d, p); err != nil {
		return err
	}
	return r.readRecords(d, p, info, fn)
}

func (r *Reader) checkHeader(d *instrprof.Decoder, p *profile, info *Info) error {
	h := p.h
	fail := func(format string, args ...any) error {
		return &instrprof.FormatError{File: d.File, Offset: int64(p.base), Msg: fmt.Sprintf(format, args...)}
	}
	if info.Profiles > 0 && h.FormatVersion() != info.Version {
		return fail("concatenated profiles of versions %d and %d", info.Version, h.FormatVersion())
	}
	info.Version = h.FormatVersion()
	info.Kind |= h.Kind()
	l, err := h.sections()
	if err != nil {
		return fail("corrupt header: %v", err)
	}
	p.l = l
	if avail := uint64(len(d.Buf) - p.base); l.values > avail {
		return fail("truncated: the header describes %d bytes of sections, the file has %d (process killed while writing?)", l.values, avail)
	}
	return nil
}

func (r *Reader) readBinaryIDs(d *instrprof.Decoder, p *profile, info *Info) error {
	sd := sub(d, p.base+int(p.l.binaryIDs), int(p.h.BinaryIDsSize))
	for sd.Remaining() > 0 && sd.Err() == nil {
		at := sd.Pos()
		n := sd.U64("binary id length")
		if sd.Err() == nil && (n == 0 || n > uint64(sd.Remaining())) {
			sd.FailAt(at, "bad binary id length %d", n)
			break
		}
		id := sd.Bytes(int(n), "binary id")
		sd.Skip(int(pad8(n)), "binary id padding")
		if sd.Err() == nil {
			p.binaryIDs = append(p.binaryIDs, append([]byte(nil), id...))
		}
	}
	info.BinaryIDs = append(info.BinaryIDs, p.binaryIDs...)
	return sd.Err()
}

// sub returns a decoder over n bytes of d's buffer from off.
func sub(d *instrprof.Decoder, off, n int) *instrprof.Decoder {
	return &instrprof.Decoder{File: d.File, Base: d.Base + int64(off), Buf: d.Buf[off : off+n], Order: d.Order}
}

func (r *Reader) setupRecords(d *instrprof.Decoder, p *profile) error {
	h := p.h
	c, err := r.correlation(p)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", d.File, err)
	case h.Correlated() && c == nil:
		return fmt.Errorf("%s: %w", d.File, ErrNeedBinary)
	case h.Correlated():
		if err := c.check(h); err != nil {
			return fmt.Errorf("%s: %w", d.File, err)
		}
		p.correlated = true
		p.recs = c.recs
		p.names = c.names
		return nil
	case c != nil && h.NumData > 0:
		return fmt.Errorf("%s: %w", d.File, ErrNotCorrelated)
	}
	r.recs = decodeAll(r.recs[:0], d.Buf[p.base+int(p.l.data):], int(h.NumData), h)
	p.recs = r.recs
	p.dataFileOff = d.Base + int64(p.base) + int64(p.l.data)
	nd := sub(d, p.base+int(p.l.names), int(h.NamesSize))
	names, err := r.Names.get(nd)
	if err != nil {
		return err
	}
	p.names = names
	return nil
}

// correlation is the Correlation of profile p: the Reader's, else the one
// Lookup finds by p's binary ids, else nil.
func (r *Reader) correlation(p *profile) (*Correlation, error) {
	if r.Correlation != nil || r.Lookup == nil {
		return r.Correlation, nil
	}
	return r.Lookup(p.binaryIDs)
}

// dataRecord is one decoded per-function data record.
type dataRecord struct {
	nameRef, funcHash, counterPtr, bitmapPtr, funcPtr uint64
	numCounters, numBitmapBytes                       uint32
	numSites                                          [instrprof.NumValueKinds]uint16
}

// recordDecoder decodes the data records of one header: their layout,
// byte order and number of value kinds, worked out once.
type recordDecoder struct {
	l     dataLayout
	o     binary.ByteOrder
	kinds int
}

func newRecordDecoder(h *Header) recordDecoder {
	return recordDecoder{l: h.dataLayout(), o: h.order(), kinds: int(h.ValueKindLast) + 1}
}

// decode decodes the data record at the start of b.
func (rd *recordDecoder) decode(b []byte) dataRecord {
	l, o := &rd.l, rd.o
	ptr := func(off int) uint64 {
		if off < 0 {
			return 0
		}
		if l.ptr == 4 {
			return uint64(o.Uint32(b[off:]))
		}
		return o.Uint64(b[off:])
	}
	r := dataRecord{nameRef: o.Uint64(b), funcHash: o.Uint64(b[8:]), counterPtr: ptr(l.counterPtr),
		bitmapPtr: ptr(l.bitmapPtr), funcPtr: ptr(l.funcPtr), numCounters: o.Uint32(b[l.numCounters:])}
	if l.numBitmap >= 0 {
		r.numBitmapBytes = o.Uint32(b[l.numBitmap:])
	}
	for k := 0; k < rd.kinds; k++ {
		r.numSites[k] = o.Uint16(b[l.sites+2*k:])
	}
	return r
}

// decodeLE64 is decode for little-endian 64-bit programs (most raws),
// without an interface call a field, into r.
func (rd *recordDecoder) decodeLE64(r *dataRecord, b []byte) {
	l, o := &rd.l, binary.LittleEndian
	r.nameRef, r.funcHash = o.Uint64(b), o.Uint64(b[8:])
	r.counterPtr, r.funcPtr = o.Uint64(b[l.counterPtr:]), o.Uint64(b[l.funcPtr:])
	r.numCounters = o.Uint32(b[l.numCounters:])
	r.bitmapPtr, r.numBitmapBytes = 0, 0
	if l.bitmapPtr >= 0 {
		r.bitmapPtr = o.Uint64(b[l.bitmapPtr:])
	}
	if l.numBitmap >= 0 {
		r.numBitmapBytes = o.Uint32(b[l.numBitmap:])
	}
	r.numSites = [instrprof.NumValueKinds]uint16{}
	for k := 0; k < rd.kinds; k++ {
		r.numSites[k] = o.Uint16(b[l.sites+2*k:])
	}
}

// decodeAll appends the n data records in b.
func decodeAll(out []dataRecord, b []byte, n int, h *Header) []dataRecord {
	rd := newRecordDecoder(h)
	start := len(out)
	out = slices.Grow(out, n)[:start+n]
	recs := out[start:]
	if rd.o == binary.LittleEndian && rd.l.ptr == 8 {
		for i := range recs {
			rd.decodeLE64(&recs[i], b[i*rd.l.size:])
		}
		return out
	}
	for i := range recs {
		recs[i] = rd.decode(b[i*rd.l.size:])
	}
	return out
}

func (r *Reader) readRecords(d *instrprof.Decoder, p *profile, info *Info, fn Func) error {
	h := p.h
	size := p.recSize
	kinds := int(h.ValueKindLast) + 1
	if !p.correlated {
		r.buildAddrMap(p)
		r.readVTables(d, p)
		if err := readVTableNames(d, p, info); err != nil {
			return err
		}
	}
	vd := sub(d, p.base+int(p.l.values), len(d.Buf)-p.base-int(p.l.values))
	for i := range p.recs {
		dr := &p.recs[i]
		off := p.dataFileOff + int64(i*size)
		if p.correlated {
			off = d.Base + int64(p.base)
		}
		if err := r.fillRecord(d, p, i, dr, off); err != nil {
			return err
		}
		if r.large != nil && info.LargeCounter == nil {
			info.LargeCounter = r.large
		}
		if err := r.readValues(vd, p, dr, kinds); err != nil {
			return err
		}
		if err := fn(&r.rec, dr.nameRef, off); err != nil {
			return err
		}
		info.Records++
	}
	d.Off = int(vd.Pos() - d.Base)
	if len(p.recs) == 0 && !p.correlated {
		d.Off = p.base + int(p.l.values)
	}
	return nil
}

func (r *Reader) fillRecord(d *instrprof.Decoder, p *profile, i int, dr *dataRecord, off int64) error {
	h := p.h
	fail := func(format string, args ...any) error {
		return &instrprof.FormatError{File: d.File, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
	rec := &r.rec
	rec.Name = r.nameAt(p, i, dr.nameRef)
	rec.Hash = dr.funcHash
	if dr.numCounters == 0 {
		return fail("function %s has no counters", quote.String(rec.Name))
	}
	temporal := h.Kind()&instrprof.KindTemporal != 0
	if temporal && uint64(dr.numCounters)*h.counterSize() <= timestampSize {
		return fail("function %s has no counters besides its temporal timestamp", quote.String(rec.Name))
	}
	cntOff := dr.counterPtr
	bmOff := dr.bitmapPtr
	if !p.correlated {
		delta := uint64(i * p.recSize)
		cntOff = (dr.counterPtr - (h.CountersDelta - delta)) & h.ptrMask()
		bmOff = (dr.bitmapPtr - (h.BitmapDelta - delta)) & h.ptrMask()
	}
	csize := h.counterSize()
	cnts := h.NumCounters * csize
	if cntOff >= cnts || uint64(dr.numCounters) > (cnts-cntOff)/csize {
		return fail("function %s: counters [%d, +%d) lie outside the counters section (%d counters)", quote.String(rec.Name), int64(cntOff)/int64(csize), dr.numCounters, h.NumCounters)
	}
	counters, n := d.Buf[p.base+int(p.l.counters)+int(cntOff):], int(dr.numCounters)
	if temporal {
		// The timestamp takes 8 bytes: one counter, or 8 single-byte ones.
		r.timestamp(h.order().Uint64(counters), dr.nameRef)
		counters, n, cntOff = counters[timestampSize:], n-int(timestampSize/csize), cntOff+timestampSize
	}
	r.large = nil
	if bits := r.readCounts(counters, n, csize, h.order()); bits > maxCounter {
		if j := largeCounter(rec.Counts); j >= 0 {
			at := int64(p.base) + int64(p.l.counters) + int64(cntOff) + int64(j)*int64(csize)
			r.large = &instrprof.FormatError{File: d.File, Offset: at,
				Msg: fmt.Sprintf("excessively large counter value suggests corrupted profile data: %d", rec.Counts[j])}
		}
	}
	rec.Bitmap = nil
	if dr.numBitmapBytes > 0 && !p.correlated {
		if bmOff >= h.NumBitmapBytes || uint64(dr.numBitmapBytes) > h.NumBitmapBytes-bmOff {
			return fail("function %s: bitmap bytes lie outside the bitmap section", quote.String(rec.Name))
		}
		start := p.base + int(p.l.bitmap) + int(bmOff)
		end := start + int(dr.numBitmapBytes)
		rec.Bitmap = d.Buf[start:end:end]
	}
	return nil
}

// nameAt is the name of the record at position i with reference ref.
// Raws of one binary list their records in the same order: the name found
// for the record at i of the previous profile is taken again when the
// reference and the names table are the same, without a lookup.
func (r *Reader) nameAt(p *profile, i int, ref uint64) string {
	if r.posTable != p.names {
		r.posTable, r.posRefs, r.posNames = p.names, r.posRefs[:0], r.posNames[:0]
	}
	if i < len(r.posRefs) && r.posRefs[i] == ref {
		return r.posNames[i]
	}
	name := p.names.byRef[ref]
	switch {
	case i < len(r.posRefs):
		r.posRefs[i], r.posNames[i] = ref, name
	case i == len(r.posRefs):
		r.posRefs, r.posNames = append(r.posRefs, ref), append(r.posNames, name)
	}
	return name
}

// timestampSize is the size of the timestamp that starts the counters of
// a temporal profile's record, whatever the counters' size.
const timestampSize = 8

// timestamp notes the timestamp of a temporal profile's record: the order
// of the function's first call (0 or all ones when never called).
func (r *Reader) timestamp(ts, ref uint64) {
	if ts != 0 && ts != ^uint64(0) {
		r.stamps = append(r.stamps, stamp{ts, ref})
	}
}

// stamp is a temporal profile timestamp and its function.
type stamp struct{ ts, ref uint64 }

// trace orders the functions stamped by timestamp, then reference.
func trace(stamps []stamp) []uint64 {
	slices.SortFunc(stamps, func(a, b stamp) int {
		if c := cmp.Compare(a.ts, b.ts); c != 0 {
			return c
		}
		return cmp.Compare(a.ref, b.ref)
	})
	refs := make([]uint64, len(stamps))
	for i, s := range stamps {
		refs[i] = s.ref
	}
	return refs
}

// maxCounter is the largest counter LLVM's raw reader believes: anything
// above is taken for corruption, and warned about (Info.LargeCounter).
const maxCounter = 1 << 56

// largeCounter returns the index of the first counter above maxCounter,
// or -1.
func largeCounter(c []uint64) int {
	for i, v := range c {
		if v > maxCounter {
			return i
		}
	}
	return -1
}

// readCounts decodes the n counters in b into the record, appending them to
// the counts of the file read so far, and returns their bitwise or: when
// it is at most maxCounter, so is every counter.
func (r *Reader) readCounts(b []byte, n int, csize uint64, order binary.ByteOrder) (bits uint64) {
	start := len(r.counts)
	r.counts = slices.Grow(r.counts, n)[:start+n]
	c := r.counts[start : start+n : start+n]
	switch {
	case csize == 1:
		for i := range c {
			c[i] = 0
			if b[i] == 0 { // single-byte coverage: 0 means covered
				c[i] = 1
			}
		}
	case order == binary.LittleEndian: // the common case, without an interface call a counter
		b = b[:8*n]
		for i := range c {
			c[i] = binary.LittleEndian.Uint64(b[8*i:])
			bits |= c[i]
		}
	default:
		for i := range c {
			c[i] = order.Uint64(b[8*i:])
			bits |= c[i]
		}
	}
	r.rec.Counts = c
	return bits
}

func (r *Reader) readValues(vd *instrprof.Decoder, p *profile, dr *dataRecord, kinds int) error {
	rec := &r.rec
	for k := range rec.Sites {
		if rec.Sites[k] != nil {
			rec.Sites[k] = nil
		}
	}
	has := false
	for k := 0; k < kinds; k++ {
		has = has || dr.numSites[k] > 0
	}
	if !has || p.correlated {
		return nil
	}
	if vd.Remaining() == 0 {
		vd.Failf("truncated: value profile data of function %s is missing (continuous mode without -mllvm -disable-vp?)", quote.String(rec.Name))
		return vd.Err()
	}
	instrprof.DecodeValueData(vd, rec, kinds-1, r.remap, &r.values)
	for s, vs := range rec.Sites[instrprof.ValueIndirectCall] {
		rec.Sites[instrprof.ValueIndirectCall][s] = instrprof.CollapseSite(vs)
	}
	for k := 0; k < kinds && vd.Err() == nil; k++ {
		if len(rec.Sites[k]) != 0 && len(rec.Sites[k]) != int(dr.numSites[k]) {
			vd.Failf("function %s: %d value sites of kind %d, the record says %d", quote.String(rec.Name), len(rec.Sites[k]), k, dr.numSites[k])
		}
	}
	return vd.Err()
}

// addrRef maps a function's runtime address to its name reference, for
// indirect-call targets.
type addrRef struct{ addr, ref uint64 }

func (r *Reader) buildAddrMap(p *profile) {
	r.addrs = r.addrs[:0]
	for _, dr := range p.recs {
		if dr.funcPtr != 0 {
			r.addrs = append(r.addrs, addrRef{dr.funcPtr, dr.nameRef})
		}
	}
	sort.Slice(r.addrs, func(i, j int) bool { return r.addrs[i].addr < r.addrs[j].addr })
}

// vtable is the address range of a profiled vtable and its name reference.
type vtable struct{ start, end, ref uint64 }

// readVTables reads the vtable section (v10+: {u64 name ref, pointer,
// u32 size} each, padded to 8 bytes), for vtable value profiles.
func (r *Reader) readVTables(d *instrprof.Decoder, p *profile) {
	r.vtabs = r.vtabs[:0]
	b := d.Buf[p.base+int(p.l.vtables):]
	h, o := p.h, p.h.order()
	size, ptr := h.vtableSize(), h.ptrSize()
	for i := 0; i < int(h.NumVTables); i++ {
		e := b[size*i:]
		var start uint64
		if ptr == 4 {
			start = uint64(o.Uint32(e[8:]))
		} else {
			start = o.Uint64(e[8:])
		}
		r.vtabs = append(r.vtabs, vtable{start, start + uint64(o.Uint32(e[8+ptr:])), o.Uint64(e)})
	}
	sort.Slice(r.vtabs, func(i, j int) bool { return r.vtabs[i].start < r.vtabs[j].start })
}

// readVTableNames decodes the vtable names section (v10+), as llvm's
// reader does when it builds its symbol table: damage there fails the file.
func readVTableNames(d *instrprof.Decoder, p *profile, info *Info) error {
	nd := sub(d, p.base+int(p.l.vnames), int(p.h.VNamesSize))
	return instrprof.DecodeNames(nd, func(name string) { info.VTableNames = append(info.VTableNames, name) })
}

// remap turns an indirect-call target address into the callee's name
// reference and a vtable address into the vtable's (0 when the address is
// not profiled), as LLVM does.
func (r *Reader) remap(kind int, v uint64) uint64 {
	if kind == instrprof.ValueVTable {
		i := sort.Search(len(r.vtabs), func(i int) bool { return r.vtabs[i].start > v }) - 1
		if i >= 0 && v < r.vtabs[i].end {
			return r.vtabs[i].ref
		}
		return 0
	}
	if kind != instrprof.ValueIndirectCall {
		return v
	}
	i := sort.Search(len(r.addrs), func(i int) bool { return r.addrs[i].addr >= v })
	if i < len(r.addrs) && r.addrs[i].addr == v {
		return r.addrs[i].ref
	}
	return 0
}
