package raw

import (
	"encoding/binary"
	"fmt"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/profformat"
)

// Magic is the 64-bit raw profile magic ("\x81rforpl\xff" on disk).
const Magic = profformat.RawMagic64

// magic32 is the magic of raw profiles of 32-bit programs.
const magic32 = profformat.RawMagic32

// Version is the format version clang 19 to 22 write: the only one
// llvm-profdata 19 to 22 read. Versions 8 and 9 are read too.
const Version = 10

// Writers names the clang releases that write raws of each version read.
var Writers = map[int]string{8: "clang 14 to 17", 9: "clang 18", 10: "clang 19 to 22"}

// Header is a raw profile header, with the fields of every supported
// version (absent ones are zero).
type Header struct {
	Version                 uint64 // low 32 bits: format version
	BinaryIDsSize           uint64
	NumData                 uint64
	PaddingBeforeCounters   uint64
	NumCounters             uint64
	PaddingAfterCounters    uint64
	NumBitmapBytes          uint64
	PaddingAfterBitmapBytes uint64
	NamesSize               uint64
	CountersDelta           uint64
	BitmapDelta             uint64
	NamesDelta              uint64
	NumVTables              uint64
	VNamesSize              uint64
	ValueKindLast           uint64

	// Order is the byte order of the profiled program, PtrSize its pointer
	// size (4 or 8): they shape the data records and every number. Zero
	// values mean little-endian and 8.
	Order   binary.ByteOrder
	PtrSize int
}

func (h *Header) order() binary.ByteOrder {
	if h.Order == nil {
		return binary.LittleEndian
	}
	return h.Order
}

func (h *Header) ptrSize() int {
	if h.PtrSize == 0 {
		return 8
	}
	return h.PtrSize
}

// FormatVersion is the version number without variant bits.
func (h *Header) FormatVersion() int { return int(uint32(h.Version)) }

// Kind is the variant bits.
func (h *Header) Kind() instrprof.Kind { return instrprof.Kind(h.Version) & instrprof.KindMask }

// Correlated reports a header written in a correlation mode: counters
// only, the function records and names are in the binary.
func (h *Header) Correlated() bool { return h.NumData == 0 && h.NamesSize == 0 && h.NumCounters > 0 }

// recordSize is the size of one per-function data record.
func (h *Header) recordSize() int { return h.dataLayout().size }

// dataLayout places the fields of a per-function data record: the name
// reference and function hash (8 bytes each), then pointer-sized counter
// pointer, bitmap pointer (version 9 on), function pointer and values
// pointer, the counter count (4 bytes), the value site counts (2 bytes per
// value kind the writer knew: 2 before version 10, 3 since) and the bitmap
// byte count (4 bytes, version 9 on); the record is padded to 8 bytes.
func (h *Header) dataLayout() dataLayout {
	v, p := h.FormatVersion(), h.ptrSize()
	l := dataLayout{ptr: p, counterPtr: 16, bitmapPtr: -1, numBitmap: -1}
	off := 16 + p
	if v >= 9 {
		l.bitmapPtr, off = off, off+p
	}
	l.funcPtr = off
	off += 2 * p // function pointer, values pointer
	l.numCounters, off = off, off+4
	l.sites = off
	kinds := 2
	if v >= 10 {
		kinds = 3
	}
	off += 2 * kinds
	if v >= 9 {
		off = (off + 3) &^ 3
		l.numBitmap, off = off, off+4
	}
	l.size = (off + 7) &^ 7
	return l
}

// dataLayout is where the fields of a data record lie (-1: absent).
type dataLayout struct {
	size, ptr                      int
	counterPtr, bitmapPtr, funcPtr int
	numCounters, sites, numBitmap  int
}

// vtableSize is the size of a vtable record: name reference (8 bytes),
// pointer, size (4 bytes), padded to 8.
func (h *Header) vtableSize() int { return (8 + h.ptrSize() + 4 + 7) &^ 7 }

// ptrMask keeps the bits of a pointer-sized difference.
func (h *Header) ptrMask() uint64 {
	if h.ptrSize() == 4 {
		return 1<<32 - 1
	}
	return ^uint64(0)
}

func (h *Header) counterSize() uint64 {
	if h.Kind()&instrprof.KindByteCoverage != 0 {
		return 1
	}
	return 8
}

// headerSize is the size of the header of version v.
func headerSize(v int) int {
	switch v {
	case 8:
		return 11 * 8
	case 9:
		return 14 * 8
	}
	return 16 * 8
}

// readHeader decodes a header; d is positioned at the magic, which gives
// the byte order and pointer size (and sets d's order).
func readHeader(d *instrprof.Decoder) (*Header, error) {
	at := d.Pos()
	head := d.Bytes(8, "magic")
	if d.Err() != nil {
		return nil, d.Err()
	}
	order, ptr, ok := magicOrder(head)
	if !ok {
		return nil, &instrprof.FormatError{File: d.File, Offset: at, Msg: fmt.Sprintf("bad magic %#x: not a raw profile", binary.LittleEndian.Uint64(head))}
	}
	d.Order = order
	h := &Header{Version: d.U64("version"), Order: order, PtrSize: ptr}
	v := h.FormatVersion()
	if d.Err() == nil && Writers[v] == "" {
		return nil, &instrprof.FormatError{File: d.File, Offset: at + 8,
			Msg: fmt.Sprintf("raw profile format version %d is not supported (8, 9 and 10 are: LLVM 14 to 22)", v)}
	}
	h.BinaryIDsSize = d.U64("header")
	h.NumData = d.U64("header")
	h.PaddingBeforeCounters = d.U64("header")
	h.NumCounters = d.U64("header")
	h.PaddingAfterCounters = d.U64("header")
	if v >= 9 {
		h.NumBitmapBytes = d.U64("header")
		h.PaddingAfterBitmapBytes = d.U64("header")
	}
	h.NamesSize = d.U64("header")
	h.CountersDelta = d.U64("header")
	if v >= 9 {
		h.BitmapDelta = d.U64("header")
	}
	h.NamesDelta = d.U64("header")
	if v >= 10 {
		h.NumVTables = d.U64("header")
		h.VNamesSize = d.U64("header")
	}
	h.ValueKindLast = d.U64("header")
	if d.Err() != nil {
		return nil, d.Err()
	}
	if h.ValueKindLast >= instrprof.NumValueKinds {
		return nil, &instrprof.FormatError{File: d.File, Offset: d.Pos() - 8, Msg: fmt.Sprintf("bad value kind count %d", h.ValueKindLast+1)}
	}
	return h, nil
}

// magicOrder tells the byte order and pointer size of a raw profile from
// its magic.
func magicOrder(b []byte) (binary.ByteOrder, int, bool) {
	for _, o := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		switch o.Uint64(b) {
		case Magic:
			return o, 8, true
		case magic32:
			return o, 4, true
		}
	}
	return nil, 0, false
}

// layout gives the offsets, relative to the header start, of each section.
type layout struct {
	binaryIDs, data, counters, bitmap, names, vtables, vnames, values, end uint64
}

func pad8(n uint64) uint64 { return (8 - n%8) % 8 }

const sectionLimit = 1 << 40

// sections computes the section offsets, failing on sizes no file can hold.
func (h *Header) sections() (layout, error) {
	for _, n := range []uint64{h.BinaryIDsSize, h.NumData, h.NumCounters, h.NumBitmapBytes, h.NamesSize,
		h.NumVTables, h.VNamesSize, h.PaddingBeforeCounters, h.PaddingAfterCounters, h.PaddingAfterBitmapBytes} {
		if n >= sectionLimit {
			return layout{}, fmt.Errorf("header section size %d is impossible", n)
		}
	}
	if h.BinaryIDsSize%8 != 0 {
		return layout{}, fmt.Errorf("binary ids size %d is not a multiple of 8", h.BinaryIDsSize)
	}
	var l layout
	l.binaryIDs = uint64(headerSize(h.FormatVersion()))
	l.data = l.binaryIDs + h.BinaryIDsSize
	l.counters = l.data + h.NumData*uint64(h.recordSize()) + h.PaddingBeforeCounters
	l.bitmap = l.counters + h.NumCounters*h.counterSize() + h.PaddingAfterCounters
	l.names = l.bitmap + h.NumBitmapBytes + h.PaddingAfterBitmapBytes
	l.vtables = l.names + h.NamesSize + pad8(h.NamesSize)
	l.vnames = l.vtables + h.NumVTables*uint64(h.vtableSize())
	l.values = l.vnames + h.VNamesSize + pad8(h.VNamesSize)
	return l, nil
}
