package perfdatafile

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/mmapfile"
)

// FormatError is malformed input, at a byte offset of the file.
type FormatError struct {
	File   string
	Part   string // "perf.data header" for the header; "" for the rest
	Offset int64  // byte offset in the file
	// InCompressed is set for a record inside the data decompressed from
	// the PERF_RECORD_COMPRESSED at Offset; Inner is its offset there.
	InCompressed bool
	Inner        int64
	Msg          string
}

func (e *FormatError) Error() string {
	if e.InCompressed {
		return fmt.Sprintf("%s: at byte %d of the data decompressed from the record at byte %d: %s", e.File, e.Inner, e.Offset, e.Msg)
	}
	if e.Part != "" {
		return fmt.Sprintf("%s: %s at byte %d: %s", e.File, e.Part, e.Offset, e.Msg)
	}
	return fmt.Sprintf("%s: at byte %d: %s", e.File, e.Offset, e.Msg)
}

// Record is one raw record: its header fields and its bytes.
type Record struct {
	Type uint32
	Misc uint16
	// Data is the whole record, header included. It stays valid until the
	// next call to Next, or until Close when Stable is set (a record of a
	// mapped file, not decompressed).
	Data   []byte
	Stable bool
	// Offset is the record's byte offset in the file, or that of the
	// compressed record it was decompressed from (then InCompressed is set
	// and Inner is its offset in the decompressed data).
	Offset       int64
	InCompressed bool
	Inner        int64
}

// Body returns the record's bytes after its header.
func (r *Record) Body() []byte { return r.Data[eventHdr:] }

// Reader reads a perf.data file or stream record by record. Use it like
// bufio.Scanner:
//
//	for r.Next() { rec := r.Record(); ... }
//	if err := r.Err(); err != nil { ... }
type Reader struct {
	name  string
	Pipe  bool    // pipe mode: attributes and features come as records
	Attrs []*Attr // every event; grows in pipe mode as HEADER_ATTR records come
	// BuildIDs are the build ids recorded for DSOs (the BUILD_ID feature
	// or HEADER_BUILD_ID records).
	BuildIDs []BuildID
	// Cmdline is the command line of perf record (the CMDLINE feature):
	// the perf executable, then its arguments.
	Cmdline []string
	// MaxDecompressed bounds the data one compressed record may expand to
	// (with what is left of a record cut by the previous one).
	MaxDecompressed int

	src    source
	rec    Record
	err    error
	byID   map[uint64]*Attr
	layout sampleLayout
	z      *zstream // the zstd stream of compressed records, once one is seen
	zbuf   []byte   // decompressed data being read
	zpos   int      // next record in zbuf
	zfrom  int64    // offset of the compressed record zbuf came from
	zdone  int64    // bytes of decompressed data before zbuf[0]
}

// DefaultMaxDecompressed is a compressed record's default bound: perf
// compresses one ring-buffer read (at most the mmap size, 512 KiB by
// default, a few MiB when raised) into each.
const DefaultMaxDecompressed = 64 << 20

// source yields the raw records of the file, in file order.
type source interface {
	// next returns the next record's bytes and offset; nil at the end.
	next() ([]byte, int64, error)
	// skip passes over n bytes that follow the record just returned
	// (the payload of AUXTRACE and TRACING_DATA records).
	skip(n int64) error
	stable() bool
	close() error
}

// NewReader reads a pipe-mode stream (perf record -o -) from r; name is
// used in errors.
func NewReader(r io.Reader, name string) (*Reader, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	hdr, err := br.Peek(pipeHdrSize)
	if err != nil {
		return nil, &FormatError{File: name, Msg: "not a perf.data stream: shorter than its 16-byte header"}
	}
	if err := checkMagic(hdr, name); err != nil {
		return nil, err
	}
	if size := le.Uint64(hdr[8:]); size != pipeHdrSize {
		return nil, &FormatError{File: name, Offset: 8, Msg: fmt.Sprintf("header size %d: a file-mode perf.data (104) must be opened as a file, not read as a stream", size)}
	}
	br.Discard(pipeHdrSize)
	rd := newReader(name, &streamSource{r: br, off: pipeHdrSize})
	rd.Pipe = true
	return rd, nil
}

func newReader(name string, src source) *Reader {
	return &Reader{name: name, src: src, byID: map[uint64]*Attr{}, MaxDecompressed: DefaultMaxDecompressed,
		layout: sampleLayout{idPos: -1, isPos: -1}}
}

func checkMagic(b []byte, name string) error {
	switch string(b[:8]) {
	case magic:
		return nil
	case magicSwap:
		return &FormatError{File: name, Msg: "big-endian perf.data (recorded on another byte order) is not supported"}
	}
	return &FormatError{File: name, Msg: "not a perf.data file (no PERFILE2 magic)"}
}

// Name is the name given to the reader, used in errors.
func (r *Reader) Name() string { return r.name }

// Record returns the current record.
func (r *Reader) Record() *Record { return &r.rec }

// Err returns the first error, nil at the end of the input.
func (r *Reader) Err() error { return r.err }

// Close releases the file and the decompressor.
func (r *Reader) Close() error {
	if r.z != nil {
		r.z.close()
		r.z = nil
	}
	return r.src.close()
}

func (r *Reader) errorf(off int64, format string, args ...any) bool {
	r.err = &FormatError{File: r.name, Offset: off, Msg: fmt.Sprintf(format, args...)}
	return false
}

// Next advances to the next record, in file order; records inside a
// compressed record come in its place. Records that describe the file
// rather than events (HEADER_ATTR, EVENT_UPDATE, FEATURE, BUILD_ID,
// COMPRESSED) are read by the Reader itself and not returned.
func (r *Reader) Next() bool {
	for r.err == nil {
		if r.zbuf != nil && r.nextDecompressed() {
			if r.takeMeta() {
				continue
			}
			return true
		}
		if r.err != nil {
			return false
		}
		b, off, err := r.src.next()
		if err != nil {
			r.err = r.wrapErr(err, off)
			return false
		}
		if b == nil {
			return r.finish()
		}
		r.rec = Record{Type: le.Uint32(b), Misc: le.Uint16(b[4:]), Data: b, Stable: r.src.stable(), Offset: off}
		if r.rec.Type == RecordCompressed {
			r.decompress(b, off)
			continue
		}
		if r.takeMeta() {
			continue
		}
		return true
	}
	return false
}

// finish checks the end: a record cut in two by the end of the
// decompressed data is an error.
func (r *Reader) finish() bool {
	if r.zbuf != nil && r.zpos < len(r.zbuf) {
		r.err = &FormatError{File: r.name, Offset: r.zfrom, InCompressed: true, Inner: r.zdone + int64(r.zpos),
			Msg: fmt.Sprintf("compressed data ends inside a record (%d bytes left)", len(r.zbuf)-r.zpos)}
	}
	return false
}

func (r *Reader) wrapErr(err error, off int64) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return err
	}
	return &FormatError{File: r.name, Offset: off, Msg: err.Error()}
}

// takeMeta reads the records that describe the file, and skips the
// payload that follows AUXTRACE and TRACING_DATA; it reports whether the
// record was consumed.
func (r *Reader) takeMeta() bool {
	rec := &r.rec
	body := rec.Body()
	switch rec.Type {
	case RecordHeaderAttr:
		r.addPipeAttr(body)
	case RecordEventUpdate:
		r.eventUpdate(body)
	case RecordFeature:
		if len(body) >= 8 {
			r.feature(le.Uint64(body), body[8:], rec.Offset)
		}
	case RecordBuildID:
		r.BuildIDs = append(r.BuildIDs, parseBuildIDs(rec.Data)...)
	case RecordAuxtrace:
		if len(body) >= 8 {
			r.skipPayload(int64(le.Uint64(body)))
		}
		return true
	case RecordTracingData:
		if len(body) >= 4 {
			r.skipPayload(int64(le.Uint32(body)+7) &^ 7)
		}
		return true
	default:
		return false
	}
	return true
}

func (r *Reader) skipPayload(n int64) {
	if r.rec.InCompressed {
		r.errorf(r.rec.Offset, "payload record (type %d) inside compressed data", r.rec.Type)
		return
	}
	if err := r.src.skip(n); err != nil {
		r.err = r.wrapErr(err, r.rec.Offset)
	}
}

// addPipeAttr reads a HEADER_ATTR record: an attr, then its ids.
func (r *Reader) addPipeAttr(body []byte) {
	a, err := parseAttr(body)
	if err != nil {
		r.errorf(r.rec.Offset, "HEADER_ATTR: %v", err)
		return
	}
	size := int(le.Uint32(body[4:]))
	for b := body[size:]; len(b) >= 8; b = b[8:] {
		a.IDs = append(a.IDs, le.Uint64(b))
	}
	r.addAttr(a)
}

func (r *Reader) addAttr(a *Attr) {
	if a.Name == "" {
		a.Name = a.defaultName()
	}
	if len(r.Attrs) == 0 {
		r.layout = layoutOf(a)
	}
	r.Attrs = append(r.Attrs, a)
	for _, id := range a.IDs {
		r.byID[id] = a
	}
}

// eventUpdateName is PERF_EVENT_UPDATE__NAME.
const eventUpdateName = 2

// eventUpdate reads an EVENT_UPDATE record: u64 type, u64 id, data. Only
// the name matters here.
func (r *Reader) eventUpdate(body []byte) {
	if len(body) < 16 || le.Uint64(body) != eventUpdateName {
		return
	}
	if a := r.byID[le.Uint64(body[8:])]; a != nil {
		a.Name = cString(body[16:])
	}
}

func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// Progress returns the byte offset of the record read last and the size
// of the input (-1 for a stream).
func (r *Reader) Progress() (done, total int64) {
	if s, ok := r.src.(*bytesSource); ok {
		return r.rec.Offset, int64(len(s.data))
	}
	return r.rec.Offset, -1
}

// ReleaseBefore lets the pages of a mapped file before byte off leave
// memory (records there stay readable: they are read back from the file).
func (r *Reader) ReleaseBefore(off int64) {
	s, ok := r.src.(*bytesSource)
	if !ok || !s.unmap {
		return
	}
	const page = 4096
	end := min(off, int64(len(s.data))) &^ (page - 1)
	if end > s.released {
		mmapfile.Release(s.data[s.released:end])
		s.released = end
	}
}
