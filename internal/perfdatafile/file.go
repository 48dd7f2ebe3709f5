package perfdatafile

import (
	"errors"
	"fmt"
	"math/bits"
	"os"

	"github.com/profgen/profgen/internal/mmapfile"
)

// Open maps a perf.data file into memory and reads its header, attributes
// and feature sections. A pipe-mode file (perf record -o - > file) is read
// as a stream. Close unmaps it.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	data, err := mmapfile.Map(f)
	if errors.Is(err, mmapfile.ErrNotRegular) { // a FIFO: pipe mode
		r, err := NewReader(f, path)
		if err != nil {
			f.Close()
			return nil, err
		}
		r.src.(*streamSource).closer = f
		return r, nil
	}
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r, err := openBytes(data, path)
	if err != nil {
		mmapfile.Unmap(data)
		return nil, err
	}
	r.src.(*bytesSource).unmap = true
	return r, nil
}

// OpenBytes reads a perf.data file held in memory (file or pipe mode).
func OpenBytes(data []byte, name string) (*Reader, error) { return openBytes(data, name) }

func openBytes(data []byte, name string) (*Reader, error) {
	if len(data) < pipeHdrSize {
		return nil, &FormatError{File: name, Msg: fmt.Sprintf("not a perf.data file: %d bytes, shorter than any header", len(data))}
	}
	if err := checkMagic(data, name); err != nil {
		return nil, err
	}
	if le.Uint64(data[8:]) == pipeHdrSize {
		r := newReader(name, &bytesSource{data: data, pos: pipeHdrSize, end: int64(len(data))})
		r.Pipe = true
		return r, nil
	}
	h, err := readFileHeader(data, name)
	if err != nil {
		return nil, err
	}
	r := newReader(name, &bytesSource{data: data, pos: int64(h.data.off), end: int64(h.data.off + h.data.size)})
	if err := r.readAttrs(data, h); err != nil {
		return nil, err
	}
	if err := r.readFeatures(data, h); err != nil {
		return nil, err
	}
	return r, nil
}

const hdrPart = "perf.data header"

type section struct{ off, size uint64 }

type fileHeader struct {
	attrSize          uint64
	attrs, data, evts section
	features          [4]uint64
}

// readFileHeader reads struct perf_file_header and checks that its
// sections lie inside the file.
func readFileHeader(b []byte, name string) (*fileHeader, error) {
	size := uint64(len(b))
	if size < fileHdrSize {
		return nil, &FormatError{File: name, Part: hdrPart, Msg: fmt.Sprintf("header cut short (%d bytes, the header has %d)", size, fileHdrSize)}
	}
	if hs := le.Uint64(b[8:]); hs != fileHdrSize {
		return nil, &FormatError{File: name, Part: hdrPart, Offset: 8, Msg: fmt.Sprintf("header size %d is impossible: want %d (pipe mode: 16)", hs, fileHdrSize)}
	}
	h := &fileHeader{attrSize: le.Uint64(b[16:])}
	for i, s := range []*section{&h.attrs, &h.data, &h.evts} {
		at := 24 + 16*i
		s.off, s.size = le.Uint64(b[at:]), le.Uint64(b[at+8:])
		if s.off > size || s.size > size-s.off {
			return nil, &FormatError{File: name, Part: hdrPart, Offset: int64(at), Msg: fmt.Sprintf("%s section (offset %d, size %d) runs past the end of the file (%d bytes)",
				[]string{"attrs", "data", "event types"}[i], s.off, s.size, size)}
		}
	}
	if h.data.size == 0 { // perf was stopped before it wrote the header: read to the end
		h.data.size = size - h.data.off
	}
	for i := range h.features {
		h.features[i] = le.Uint64(b[72+8*i:])
	}
	return h, nil
}

// readAttrs reads the attrs section: per event, its perf_event_attr and
// the file section of its ids.
func (r *Reader) readAttrs(b []byte, h *fileHeader) error {
	if h.attrSize < attrSizeVer0+16 || h.attrSize > 1<<16 {
		return r.fail(16, "attribute entry size %d is impossible", h.attrSize)
	}
	if h.attrs.size%h.attrSize != 0 {
		return r.fail(32, "attrs section size %d is not a multiple of the entry size %d", h.attrs.size, h.attrSize)
	}
	for off := h.attrs.off; off < h.attrs.off+h.attrs.size; off += h.attrSize {
		entry := b[off : off+h.attrSize]
		a, err := parseAttr(entry[:h.attrSize-16])
		if err != nil {
			return r.fail(int64(off), "%v", err)
		}
		ids := entry[h.attrSize-16:]
		idOff, idSize := le.Uint64(ids), le.Uint64(ids[8:])
		if idOff > uint64(len(b)) || idSize > uint64(len(b))-idOff || idSize%8 != 0 {
			return r.fail(int64(off+h.attrSize-16), "ids (offset %d, size %d) outside the file", idOff, idSize)
		}
		for p := idOff; p < idOff+idSize; p += 8 {
			a.IDs = append(a.IDs, le.Uint64(b[p:]))
		}
		r.addAttr(a)
	}
	if len(r.Attrs) == 0 {
		return r.fail(24, "no event attributes")
	}
	return nil
}

// fail is an error in the header, attributes or features.
func (r *Reader) fail(off int64, format string, args ...any) error {
	return &FormatError{File: r.name, Part: hdrPart, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// readFeatures reads the feature sections this package uses. Their table
// follows the data section: one (offset, size) per bit set in the header's
// bitmap, in bit order.
func (r *Reader) readFeatures(b []byte, h *fileHeader) error {
	at := h.data.off + h.data.size
	for word, set := range h.features {
		for set != 0 {
			bit := uint64(word*64 + bits.TrailingZeros64(set))
			set &= set - 1
			if at+16 > uint64(len(b)) {
				return r.fail(int64(at), "feature table cut short (feature %d)", bit)
			}
			off, size := le.Uint64(b[at:]), le.Uint64(b[at+8:])
			if off > uint64(len(b)) || size > uint64(len(b))-off {
				return r.fail(int64(at), "feature %d section (offset %d, size %d) runs past the end of the file", bit, off, size)
			}
			r.feature(bit, b[off:off+size], int64(off))
			if r.err != nil {
				return r.err
			}
			at += 16
		}
	}
	return nil
}

// feature reads one feature section's contents.
func (r *Reader) feature(bit uint64, b []byte, off int64) {
	switch bit {
	case FeatBuildID:
		r.BuildIDs = append(r.BuildIDs, parseBuildIDs(b)...)
	case FeatCmdline:
		if err := r.cmdline(b); err != nil {
			r.errorf(off, "CMDLINE feature: %v", err)
		}
	case FeatEventDesc:
		if err := r.eventDesc(b); err != nil {
			r.errorf(off, "EVENT_DESC feature: %v", err)
		}
	case FeatCompressed:
		// u32 version, type, level, ratio, mmap_len: perf decompresses a
		// record into a buffer of mmap_len bytes.
		if len(b) >= 20 {
			if n := int(le.Uint32(b[16:])); n > 0 && 2*n > r.MaxDecompressed {
				r.MaxDecompressed = min(2*n, 1<<30)
			}
		}
	}
}

// cmdline reads perf's command line: u32 count, then per string its
// length (u32, padding included) and its bytes, NUL-padded. The first is
// the perf executable, the others its arguments ("record", ...).
func (r *Reader) cmdline(b []byte) error {
	if len(b) < 4 {
		return fmt.Errorf("cut short")
	}
	n := le.Uint32(b)
	b = b[4:]
	var args []string
	for i := uint32(0); i < n; i++ {
		if len(b) < 4 || int(le.Uint32(b)) > len(b)-4 {
			return fmt.Errorf("string %d of %d cut short", i, n)
		}
		size := int(le.Uint32(b))
		args = append(args, cString(b[4:4+size]))
		b = b[4+size:]
	}
	r.Cmdline = args
	return nil
}

// eventDesc names the events: u32 count, u32 attr size, then per event
// the attr, u32 number of ids, the name (u32 length, bytes), the ids.
func (r *Reader) eventDesc(b []byte) error {
	if len(b) < 8 {
		return fmt.Errorf("cut short")
	}
	n, size := le.Uint32(b), int(le.Uint32(b[4:]))
	b = b[8:]
	for i := uint32(0); i < n; i++ {
		if size < attrSizeVer0 || len(b) < size+8 {
			return fmt.Errorf("event %d cut short", i)
		}
		nids := int(le.Uint32(b[size:]))
		slen := int(le.Uint32(b[size+4:]))
		b = b[size+8:]
		if slen > len(b) || nids > (len(b)-slen)/8 {
			return fmt.Errorf("event %d: name of %d bytes and %d ids do not fit", i, slen, nids)
		}
		name := cString(b[:slen])
		b = b[slen:]
		// The events come in the order of the attrs section.
		if int(i) < len(r.Attrs) {
			r.Attrs[i].Name = name
		}
		b = b[8*nids:]
	}
	return nil
}

// BuildID is a DSO's build id as perf recorded it.
type BuildID struct {
	PID  int32
	ID   []byte
	Path string
}

// Hex returns the build id in lower-case hex.
func (b BuildID) Hex() string { return fmt.Sprintf("%x", b.ID) }

// buildIDMiscSize is PERF_RECORD_MISC_BUILD_ID_SIZE: byte 20 of the id
// holds its size.
const buildIDMiscSize = 1 << 15

// parseBuildIDs reads build_id_event records: header, pid, 24 bytes of
// id, the file name.
func parseBuildIDs(b []byte) []BuildID {
	var out []BuildID
	for len(b) >= eventHdr+4+24 {
		misc, size := le.Uint16(b[4:]), int(le.Uint16(b[6:]))
		if size < eventHdr+4+24 || size > len(b) {
			break
		}
		id := b[12:36]
		n := 20
		if misc&buildIDMiscSize != 0 && id[20] <= 20 {
			n = int(id[20])
		}
		out = append(out, BuildID{PID: int32(le.Uint32(b[8:])), ID: append([]byte(nil), id[:n]...), Path: cString(b[36:size])})
		b = b[size:]
	}
	return out
}
