package contprof

import (
	"errors"
	"fmt"
	"slices"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/profgen/profgen/internal/pprofread"
)

// Error is a profile that could not be read: the file, the byte offset in
// the (inflated) protobuf when known, and why.
type Error struct {
	File   string
	Kind   Kind  // the format, once sniffed; 0 before
	Offset int64 // -1 when unknown
	Err    error
}

func (e *Error) Error() string {
	what := e.File
	if e.Kind != 0 {
		what += ": " + e.Kind.String()
	}
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %v", what, e.Err)
	}
	return fmt.Sprintf("%s: offset %d of the decoded profile: %v", what, e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// withFile names the file in err's *Error or *pprofread.Error.
func withFile(err error, path string) error {
	var ce *Error
	var pe *pprofread.Error
	switch {
	case errors.As(err, &ce):
		ce.File = path
	case errors.As(err, &pe):
		pe.File = path
	}
	return err
}

// withKind names the format in err's *Error.
func withKind(err error, k Kind) error {
	var ce *Error
	if errors.As(err, &ce) {
		ce.Kind = k
	}
	return err
}

// errAt is an *Error at offset off.
func errAt(off int, format string, args ...any) error {
	return &Error{Offset: int64(off), Err: fmt.Errorf(format, args...)}
}

// field is one field of a protobuf message: its number, wire type, value
// (varint and fixed types), bytes (length-delimited) and the offset of its
// key in the whole input.
type field struct {
	num  protowire.Number
	typ  protowire.Type
	val  uint64
	data []byte
	off  int
}

// eachField calls fn for each field of message b, which starts at offset
// base of the input.
func eachField(b []byte, base int, fn func(field) error) error {
	for off := 0; off < len(b); {
		f, n, err := nextField(b[off:], base+off)
		if err != nil {
			return err
		}
		if err := fn(f); err != nil {
			return err
		}
		off += n
	}
	return nil
}

// nextField reads the field at the start of b, at offset off.
func nextField(b []byte, off int) (field, int, error) {
	num, typ, kn := protowire.ConsumeTag(b)
	if kn < 0 {
		return field{}, 0, errAt(off, "bad field key: %v", protowire.ParseError(kn))
	}
	f := field{num: num, typ: typ, off: off}
	var vn int
	switch typ {
	case protowire.VarintType:
		f.val, vn = protowire.ConsumeVarint(b[kn:])
	case protowire.Fixed64Type:
		f.val, vn = protowire.ConsumeFixed64(b[kn:])
	case protowire.Fixed32Type:
		var v uint32
		v, vn = protowire.ConsumeFixed32(b[kn:])
		f.val = uint64(v)
	case protowire.BytesType:
		f.data, vn = protowire.ConsumeBytes(b[kn:])
	default:
		return field{}, 0, errAt(off, "field %d: wire type %d not read here", num, typ)
	}
	if vn < 0 {
		return field{}, 0, errAt(off, "field %d: %v", num, protowire.ParseError(vn))
	}
	return f, kn + vn, nil
}

// want refuses f unless its wire type is typ; what names the field.
func (f field) want(typ protowire.Type, what string) error {
	if f.typ != typ {
		return errAt(f.off, "%s (field %d) has wire type %d, not %d: %s", what, f.num, f.typ, typ, layoutHint)
	}
	return nil
}

// layoutHint ends the refusal of a message not in the layout read.
const layoutHint = "not the profiles/v1development layout of opentelemetry-proto 1.10–1.11"

// unknown refuses a field the layout does not have.
func (f field) unknown(msg string) error {
	return errAt(f.off, "%s has a field %d: %s", msg, f.num, layoutHint)
}

// dataOff is the offset of a length-delimited field's bytes.
func (f field) dataOff() int {
	return f.off + protowire.SizeTag(f.num) + protowire.SizeVarint(uint64(len(f.data)))
}

// varints appends a repeated integer field's values to dst: one varint, or
// a packed run of them.
func (f field) varints(dst []uint64) ([]uint64, error) {
	if f.typ == protowire.VarintType {
		return append(dst, f.val), nil
	}
	if err := f.want(protowire.BytesType, "a repeated integer"); err != nil {
		return nil, err
	}
	dst = slices.Grow(dst, varintCount(f.data))
	for b := f.data; len(b) > 0; {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, errAt(f.off, "field %d: bad packed varint", f.num)
		}
		dst, b = append(dst, v), b[n:]
	}
	return dst, nil
}

// varintCount is the number of varints in a packed run: the bytes that
// end one, with their high bit clear.
func varintCount(b []byte) int {
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	return n
}

// sniff tells OTLP from pprof by the top-level fields, read until the
// end or the first that does not parse (a file cut short is still told):
// a field past 2 is pprof's (its string table is field 6); else the first
// field 1 tells, a pprof ValueType starting with a varint, an OTLP
// ResourceProfiles with a message. Input that is no protobuf is left to
// the pprof reader to refuse.
func sniff(b []byte) Kind {
	kind := Kind(0)
	complete := true
	for off := 0; off < len(b); {
		f, n, err := nextField(b[off:], off)
		if err != nil {
			complete = false
			break
		}
		if f.num > 2 {
			return KindPprof
		}
		if kind == 0 && f.num == 1 && f.typ == protowire.BytesType {
			kind = firstFieldKind(f.data)
		}
		off += n
	}
	switch {
	case kind != 0:
		return kind
	case complete && len(b) > 0:
		return KindOTLP // a dictionary alone
	}
	return KindPprof
}

// firstFieldKind tells by the wire type of a top-level field 1's first
// field: a pprof ValueType's type_strindex is a varint, an OTLP
// ResourceProfiles' resource and scope_profiles are messages.
func firstFieldKind(b []byte) Kind {
	_, typ, n := protowire.ConsumeTag(b)
	switch {
	case n < 0:
		return 0
	case typ == protowire.BytesType:
		return KindOTLP
	}
	return KindPprof
}
