package pseudoprobe

import (
	"encoding/binary"
	"fmt"

	"github.com/profgen/profgen/internal/leb128"
)

// Section names.
const (
	DescSection  = ".pseudo_probe_desc"
	ProbeSection = ".pseudo_probe"
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

// reader reads one section with a sticky error: after the first failure
// every read returns zero and the error stays the first one.
type reader struct {
	section string
	data    []byte
	off     int
	err     error
}

func (r *reader) done() bool { return r.err != nil || r.off >= len(r.data) }

func (r *reader) fail(at int, format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{Section: r.section, Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
}

func (r *reader) u8(what string) uint8 {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.data) {
		r.fail(r.off, "truncated %s", what)
		return 0
	}
	r.off++
	return r.data[r.off-1]
}

func (r *reader) u64(what string) uint64 {
	if r.err != nil {
		return 0
	}
	if len(r.data)-r.off < 8 {
		r.fail(r.off, "truncated %s: %d of 8 bytes", what, len(r.data)-r.off)
		return 0
	}
	r.off += 8
	return binary.LittleEndian.Uint64(r.data[r.off-8:])
}

// uleb reads an unsigned LEB128 number that must fit in max.
func (r *reader) uleb(what string, max uint64) uint64 {
	start := r.off
	v := readLEB128(r, what, "ULEB128", leb128.Uint, leb128.UintOverflows)
	if v > max {
		r.fail(start, "%s %d out of range (max %d)", what, v, max)
		return 0
	}
	return v
}

// sleb reads a signed LEB128 number.
func (r *reader) sleb(what string) int64 {
	return readLEB128(r, what, "SLEB128", leb128.Int, leb128.IntOverflows)
}

// readLEB128 reads a LEB128 number of at most 64 bits, as LLVM's
// decodeULEB128 and decodeSLEB128: padding past the 64th bit (zeros, or
// copies of the sign) is allowed.
func readLEB128[T uint64 | int64](r *reader, what, kind string, decode func([]byte) (T, int), overflows func([]byte) bool) T {
	if r.err != nil {
		return 0
	}
	v, n := decode(r.data[r.off:])
	switch {
	case overflows(r.data[r.off:]):
		r.fail(r.off, "%s: %s overflows 64 bits", what, kind)
	case n == 0:
		r.fail(r.off, "truncated %s", what)
	default:
		r.off += n
		return v
	}
	return 0
}

func (r *reader) bytes(n uint64, what string) []byte {
	if r.err != nil {
		return nil
	}
	if uint64(len(r.data)-r.off) < n {
		r.fail(r.off, "truncated %s: %d bytes declared, %d left", what, n, len(r.data)-r.off)
		return nil
	}
	r.off += int(n)
	return r.data[r.off-int(n) : r.off]
}
