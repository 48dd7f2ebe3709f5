package instrprof

import (
	"encoding/binary"
	"fmt"

	"github.com/profgen/profgen/internal/leb128"
)

// FormatError is a malformed-input error with the file and the byte offset
// where decoding failed.
type FormatError struct {
	File   string
	Offset int64
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s: offset %#x: %s", e.File, e.Offset, e.Msg)
}

// Decoder reads fields from a buffer that starts at byte Base of File, in
// Order (little-endian when nil). The first failure sticks: later reads
// return zero values and Err reports the first problem with its file
// offset.
type Decoder struct {
	File  string
	Base  int64
	Buf   []byte
	Off   int
	Order binary.ByteOrder
	err   error
}

func (d *Decoder) order() binary.ByteOrder {
	if d.Order == nil {
		return binary.LittleEndian
	}
	return d.Order
}

// Err returns the first error, or nil.
func (d *Decoder) Err() error { return d.err }

// Pos is the file offset of the next byte.
func (d *Decoder) Pos() int64 { return d.Base + int64(d.Off) }

// Failf records an error at the current position unless one is recorded.
func (d *Decoder) Failf(format string, args ...any) {
	d.FailAt(d.Pos(), format, args...)
}

// FailAt records an error at file offset off unless one is recorded.
func (d *Decoder) FailAt(off int64, format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{File: d.File, Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
}

// Remaining is the number of unread bytes.
func (d *Decoder) Remaining() int { return len(d.Buf) - d.Off }

func (d *Decoder) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if d.Off < 0 || d.Off > len(d.Buf) {
		d.Failf("%s: offset outside the buffer", what)
		return nil
	}
	if n < 0 || n > len(d.Buf)-d.Off {
		d.Failf("truncated %s: need %d bytes, %d left", what, n, len(d.Buf)-d.Off)
		return nil
	}
	b := d.Buf[d.Off : d.Off+n]
	d.Off += n
	return b
}

// U64 reads a uint64.
func (d *Decoder) U64(what string) uint64 {
	if b := d.take(8, what); b != nil {
		return d.order().Uint64(b)
	}
	return 0
}

// U32 reads a uint32.
func (d *Decoder) U32(what string) uint32 {
	if b := d.take(4, what); b != nil {
		return d.order().Uint32(b)
	}
	return 0
}

// U16 reads a uint16.
func (d *Decoder) U16(what string) uint16 {
	if b := d.take(2, what); b != nil {
		return d.order().Uint16(b)
	}
	return 0
}

// Bytes reads n bytes (a view into Buf).
func (d *Decoder) Bytes(n int, what string) []byte { return d.take(n, what) }

// Skip skips n bytes.
func (d *Decoder) Skip(n int, what string) { d.take(n, what) }

// maxLEB128 is the length of the longest LEB128 number a Decoder reads:
// enough for 64 bits (bits past them in its last byte are dropped).
const maxLEB128 = 10

// ULEB128 reads an unsigned LEB128 number. An eleventh byte is too long;
// a number that runs out is truncated, at the end of the buffer.
func (d *Decoder) ULEB128(what string) uint64 {
	if d.take(0, what); d.err != nil { // Off outside the buffer
		return 0
	}
	rest := d.Buf[d.Off:]
	v, n := leb128.Uint(rest)
	switch {
	case n > maxLEB128 || n == 0 && len(rest) > maxLEB128:
		d.Off += maxLEB128 + 1
		d.Failf("%s: LEB128 number too long", what)
	case n == 0:
		d.Off += len(rest)
		d.take(1, what) // fails: "truncated what: need 1 bytes, 0 left"
	default:
		d.Off += n
		return v
	}
	return 0
}
