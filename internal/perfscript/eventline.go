package perfscript

import (
	"bytes"

	"github.com/profgen/profgen/internal/record"
)

// ParseEventLine parses one line holding a PERF_RECORD_* event (MMAP,
// MMAP2, FORK, EXIT, COMM) as the Scanner does, the marker within the
// line's first 192 bytes, whatever precedes it: perf report -D prints it
// after a timestamp and file offsets. It returns false for other kinds
// and for a malformed event, whose error is returned.
func ParseEventLine(line []byte, name string, lineNo int) (record.Record, bool, error) {
	if !bytes.Contains(line[:min(len(line), 192)], []byte("PERF_RECORD_")) {
		return record.Record{}, false, nil // parseEvent looks no further
	}
	s := &Scanner{name: name, lineNo: lineNo, strs: map[string]string{}}
	ok := s.parseEvent(line)
	return s.rec, ok && s.err == nil, s.err
}
