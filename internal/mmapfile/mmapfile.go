// Package mmapfile maps a regular file into memory, read-only, so that an
// input is read without a copy or a read system call per buffer.
//
// In: an open file. Out: its bytes (valid until Unmap), or an error when
// the file cannot be mapped (not a regular file, or mapping failed): the
// caller then reads it as a stream.
package mmapfile

import (
	"errors"
	"os"
)

// ErrNotRegular is returned for pipes, FIFOs, terminals and devices.
var ErrNotRegular = errors.New("not a regular file")

// Map maps the whole file f. The mapping outlives f: f may be closed.
func Map(f *os.File) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	return mapFile(f, st.Size())
}

// Unmap releases a mapping Map returned.
func Unmap(b []byte) error { return unmapFile(b) }

// Release tells the kernel the pages of b (a part of a mapping) are not
// needed for now: they leave the process's resident set, and are read
// back from the file if touched again.
func Release(b []byte) error { return release(b) }
