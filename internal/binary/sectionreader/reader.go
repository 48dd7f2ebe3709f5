// Package sectionreader reads the numbers of one section of an object
// file with a sticky error: the first failure is kept, with the section's
// name and the byte offset where it happened, and every later read
// returns zero. The decoders of LLVM's sections (pseudo probes, basic-block
// address maps) read through it and check for an error once, at the end.
//
// In: a section's name and bytes. Out: little-endian fixed-size numbers,
// LEB128 numbers bounded by a maximum, byte strings, and a *FormatError
// ("SECTION+0xOFFSET: what was wrong"). No read trusts a length from the
// data: every one is checked against the bytes left.
package sectionreader

import (
	"encoding/binary"
	"fmt"

	"github.com/profgen/profgen/internal/leb128"
)

// FormatError is a damaged section: what was wrong and at which byte.
type FormatError struct {
	Section string
	Offset  int
	Msg     string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s+%#x: %s", e.Section, e.Offset, e.Msg)
}

// Reader reads one section from its start.
type Reader struct {
	section string
	data    []byte
	off     int
	err     error
}

// New returns a reader of data, the bytes of the section named section.
func New(section string, data []byte) *Reader {
	return &Reader{section: section, data: data}
}

// Done tells that the section is read to its end or that a read failed.
func (r *Reader) Done() bool { return r.err != nil || r.off >= len(r.data) }

// Err is the first failure, a *FormatError, or nil.
func (r *Reader) Err() error { return r.err }

// Offset is the offset of the next byte to read.
func (r *Reader) Offset() int { return r.off }

// Fail records a failure at byte at, unless one is recorded already.
func (r *Reader) Fail(at int, format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{Section: r.section, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
}

// U8 reads a byte.
func (r *Reader) U8(what string) uint8 {
	if b := r.fixed(1, what); b != nil {
		return b[0]
	}
	return 0
}

// U16 reads a little-endian 16-bit number.
func (r *Reader) U16(what string) uint16 {
	if b := r.fixed(2, what); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

// U32 reads a little-endian 32-bit number.
func (r *Reader) U32(what string) uint32 {
	if b := r.fixed(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// U64 reads a little-endian 64-bit number.
func (r *Reader) U64(what string) uint64 {
	if b := r.fixed(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// fixed returns the next n bytes of a number, or nil after a failure.
func (r *Reader) fixed(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if left := len(r.data) - r.off; left < n {
		if n == 1 {
			r.Fail(r.off, "truncated %s", what)
		} else {
			r.Fail(r.off, "truncated %s: %d of %d bytes", what, left, n)
		}
		return nil
	}
	r.off += n
	return r.data[r.off-n : r.off]
}

// Uint reads an unsigned LEB128 number that must fit in max.
func (r *Reader) Uint(what string, max uint64) uint64 {
	start := r.off
	v := readLEB128(r, what, "ULEB128", leb128.Uint, leb128.UintOverflows)
	if v > max {
		r.Fail(start, "%s %d out of range (max %d)", what, v, max)
		return 0
	}
	return v
}

// Int reads a signed LEB128 number.
func (r *Reader) Int(what string) int64 {
	return readLEB128(r, what, "SLEB128", leb128.Int, leb128.IntOverflows)
}

// readLEB128 reads a LEB128 number of at most 64 bits, as LLVM's
// decodeULEB128 and decodeSLEB128: padding past the 64th bit (zeros, or
// copies of the sign) is allowed.
func readLEB128[T uint64 | int64](r *Reader, what, kind string, decode func([]byte) (T, int), overflows func([]byte) bool) T {
	if r.err != nil {
		return 0
	}
	v, n := decode(r.data[r.off:])
	switch {
	case overflows(r.data[r.off:]):
		r.Fail(r.off, "%s: %s overflows 64 bits", what, kind)
	case n == 0:
		r.Fail(r.off, "truncated %s", what)
	default:
		r.off += n
		return v
	}
	return 0
}

// Bytes reads n bytes (a slice of the section's bytes).
func (r *Reader) Bytes(n uint64, what string) []byte {
	if r.err != nil {
		return nil
	}
	if uint64(len(r.data)-r.off) < n {
		r.Fail(r.off, "truncated %s: %d bytes declared, %d left", what, n, len(r.data)-r.off)
		return nil
	}
	r.off += int(n)
	return r.data[r.off-int(n) : r.off]
}
