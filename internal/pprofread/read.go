// Package pprofread reads pprof profiles from untrusted files: gzip
// inflation bounded, the protobuf's fields, lengths and references checked
// with their byte offsets before github.com/google/pprof/profile decodes
// it, and the decoded size estimated and bounded first.
//
// In: a file or bytes, gzipped or not. Out: a *profile.Profile, or an
// *Error naming the file and the byte offset at fault.
package pprofread

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/inflate"
)

// Error is a pprof profile that could not be read: the file, the
// byte offset in the (decompressed) protobuf when known, and why.
type Error struct {
	File   string
	Offset int64 // -1 when the decoder did not say where
	Err    error
}

func (e *Error) Error() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: pprof: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s: pprof: offset %d of the decoded profile: %v", e.File, e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// pprofBudget bounds the memory the decoded objects of one profile may
// take, as estimated from the entry counts before decoding.
const pprofBudget = 1 << 30

// Read reads a pprof profile, gzipped or not. Decompression is bounded
// by inflate.Limit of the file size, and the top-level protobuf fields are
// checked (and counted) before decoding, so that a small file cannot make
// the decoder allocate gigabytes.
func Read(path string) (*profile.Profile, error) {
	data, err := readData(path)
	if err != nil {
		return nil, err
	}
	p, err := Decode(data)
	if err != nil {
		return nil, withFile(err, path)
	}
	return p, nil
}

// Decode checks and decodes an uncompressed pprof protobuf.
func Decode(data []byte) (*profile.Profile, error) {
	if err := scanPprof(data); err != nil {
		return nil, err
	}
	if err := checkPprofRefs(data); err != nil {
		return nil, err
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, &Error{Offset: -1, Err: err}
	}
	return p, nil
}

func withFile(err error, path string) error {
	var pe *Error
	if errors.As(err, &pe) {
		pe.File = path
	}
	return err
}

// readData returns the protobuf bytes of the file, inflated when it is
// gzipped.
func readData(path string) ([]byte, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	data, err := Gunzip(raw)
	if err != nil {
		return nil, &Error{File: path, Offset: -1, Err: err}
	}
	return data, nil
}

// Gunzip returns raw inflated when it is gzipped, else raw itself.
// Inflation is bounded by inflate.Limit of len(raw).
func Gunzip(raw []byte) ([]byte, error) {
	if !IsGzip(raw) {
		return raw, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	data, err := io.ReadAll(inflate.Reader(zr, inflate.Limit(int64(len(raw)))))
	if err != nil {
		return nil, fmt.Errorf("gzip (%d bytes): %w", len(raw), err)
	}
	return data, nil
}

// IsGzip reports whether b starts with gzip's magic bytes.
func IsGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// Estimated bytes of decoded objects per top-level entry: a string
// header and allocation, a sample, location, function or mapping with its
// slices.
const (
	costString  = 48
	costMessage = 256
)

// scanPprof walks the top-level fields of a Profile message, checking
// tags and lengths, and estimates what decoding would allocate.
func scanPprof(b []byte) error {
	var estimate uint64
	for off := 0; off < len(b); {
		field, n, err := pprofField(b, off)
		if err != nil {
			return &Error{Offset: int64(off), Err: err}
		}
		switch field {
		case 2, 3, 4, 5: // sample, mapping, location, function
			estimate += costMessage
		case 6: // string_table
			estimate += costString + uint64(n)
		}
		off += n
	}
	estimate += uint64(len(b))
	if estimate > pprofBudget {
		return &Error{Offset: -1, Err: fmt.Errorf("decoding would take about %d MiB (%d-byte profile): more than the %d MiB allowed", estimate>>20, len(b), pprofBudget>>20)}
	}
	return nil
}

// pprofField reads the field at off: its number and total length.
func pprofField(b []byte, off int) (field uint64, n int, err error) {
	key, kn := pbVarint(b[off:])
	if kn <= 0 {
		return 0, 0, errors.New("bad field key")
	}
	field, n = key>>3, kn
	if field == 0 {
		return 0, 0, errors.New("bad field number 0")
	}
	switch key & 7 {
	case 0: // varint
		if _, vn := pbVarint(b[off+n:]); vn > 0 {
			return field, n + vn, nil
		}
		return 0, 0, errors.New("bad varint")
	case 1:
		n += 8
	case 5:
		n += 4
	case 2:
		l, ln := pbVarint(b[off+n:])
		if ln <= 0 || l > uint64(len(b)-off-n-ln) {
			return 0, 0, fmt.Errorf("field %d: length runs past the end (%d bytes left)", field, len(b)-off-n)
		}
		n += ln + int(l)
	default:
		return 0, 0, fmt.Errorf("field %d: unknown wire type %d", field, key&7)
	}
	if n > len(b)-off {
		return 0, 0, fmt.Errorf("field %d: truncated", field)
	}
	return field, n, nil
}
