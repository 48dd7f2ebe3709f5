package perfdata

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// Sample-type bits of perf_event_attr (linux/perf_event.h).
const (
	sampleCallchain   = 1 << 5
	sampleBranchStack = 1 << 11
)

// Content says what the samples of a perf.data file carry.
type Content struct {
	Callchain   bool // recorded with -g / --call-graph
	BranchStack bool // recorded with -b / -j (LBR, BRBE)
}

// ReadContent reads the event attributes in a perf.data file header and
// reports whether any event samples call chains or branch stacks. Pipe-mode
// files (no attribute section in the header) report an error.
func ReadContent(path string) (Content, error) {
	f, err := os.Open(path)
	if err != nil {
		return Content{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Content{}, err
	}
	return readContent(io.NewSectionReader(f, 0, st.Size()), path)
}

// sizedReaderAt is a file's contents and size.
type sizedReaderAt interface {
	io.ReaderAt
	Size() int64
}

// headerSize is the size of struct perf_file_header: magic, header size,
// attribute size, then the attrs, data and event_types sections (offset
// and size each) and the 256-bit feature bitmap.
const headerSize = 104

func readContent(r sizedReaderAt, path string) (Content, error) {
	var h [headerSize]byte
	if _, err := r.ReadAt(h[:8], 0); err != nil || !isPerfMagic(h[:8]) {
		return Content{}, fmt.Errorf("%s: not a perf.data file (no PERFILE2 magic)", path)
	}
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return Content{}, fmt.Errorf("%s: perf.data header cut short (%d bytes, the header has %d)", path, r.Size(), headerSize)
	}
	bo := byteOrder(h[:8])
	if err := checkSections(h[:], bo, r.Size()); err != nil {
		return Content{}, fmt.Errorf("%s: perf.data header %w", path, err)
	}
	attrSize := bo.Uint64(h[16:])
	attrsOff, attrsSize := bo.Uint64(h[24:]), bo.Uint64(h[32:])
	if attrSize < 40 || attrsSize == 0 {
		return Content{}, fmt.Errorf("%s: perf.data header has no event attributes (pipe mode?)", path)
	}
	var c Content
	for off := attrsOff; off+attrSize <= attrsOff+attrsSize; off += attrSize {
		st, err := readSampleType(r, bo, off)
		if err != nil {
			return Content{}, fmt.Errorf("%s: attribute at offset %d: %w", path, off, err)
		}
		c.Callchain = c.Callchain || st&sampleCallchain != 0
		c.BranchStack = c.BranchStack || st&sampleBranchStack != 0
	}
	return c, nil
}

// checkSections checks that the sections the header names lie inside the
// file of size bytes: perf trusts them, and hangs on a data size of 2^64-1.
func checkSections(h []byte, bo binary.ByteOrder, size int64) error {
	if hs := bo.Uint64(h[8:]); hs < 72 || hs > uint64(size) {
		return fmt.Errorf("at byte 8: header size %d is impossible in a file of %d bytes", hs, size)
	}
	for _, s := range []struct {
		at   int
		name string
	}{{24, "attrs"}, {40, "data"}, {56, "event types"}} {
		off, n := bo.Uint64(h[s.at:]), bo.Uint64(h[s.at+8:])
		if off > uint64(size) || n > uint64(size)-off {
			return fmt.Errorf("at byte %d: %s section (offset %d, size %d) runs past the end of the file (%d bytes)", s.at, s.name, off, n, size)
		}
	}
	return nil
}

// readSampleType reads perf_event_attr.sample_type (at byte 24 of the
// attribute: type u32, size u32, config u64, sample_period u64).
func readSampleType(r io.ReaderAt, bo binary.ByteOrder, off uint64) (uint64, error) {
	var b [8]byte
	if _, err := r.ReadAt(b[:], int64(off)+24); err != nil {
		return 0, err
	}
	return bo.Uint64(b[:]), nil
}

func byteOrder(magic []byte) binary.ByteOrder {
	if string(magic) == "PERFILE2" {
		return binary.LittleEndian
	}
	return binary.BigEndian
}

// ScriptArgs returns the perf script arguments that print what profgen
// reads from a file with content c: PIDs, task and mmap events, and either
// branch stacks (LBR; the call chain too, for hybrid samples) or call
// chains with the DSO of each frame, the time, period and event.
func ScriptArgs(c Content) []string {
	fields := "pid,time,period,event,ip,sym,dso"
	switch {
	case c.BranchStack && c.Callchain:
		fields = "pid,ip,dso,brstack" // call-chain frames are DSO-relative: the DSO places them
	case c.BranchStack:
		fields = "pid,ip,brstack"
	}
	return []string{"-F", fields, "--show-mmap-events", "--show-task-events"}
}
