package perfdatafile

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/mmapfile"
)

// bytesSource reads records from a file held in memory (mapped, usually).
type bytesSource struct {
	data     []byte
	pos, end int64
	unmap    bool  // data is a mapping of the file
	released int64 // pages before it were released
}

func (s *bytesSource) next() ([]byte, int64, error) {
	if s.pos >= s.end {
		return nil, s.pos, nil
	}
	off := s.pos
	if s.end-off < eventHdr {
		return nil, off, fmt.Errorf("record header cut short (%d bytes left)", s.end-off)
	}
	size := int64(le.Uint16(s.data[off+6:]))
	if size < eventHdr {
		return nil, off, fmt.Errorf("record size %d is smaller than its header (type %d)", size, le.Uint32(s.data[off:]))
	}
	if size > s.end-off {
		return nil, off, fmt.Errorf("record of %d bytes (type %d) runs past the end of the data (%d bytes left)", size, le.Uint32(s.data[off:]), s.end-off)
	}
	s.pos += size
	return s.data[off:s.pos:s.pos], off, nil
}

func (s *bytesSource) skip(n int64) error {
	if n < 0 || n > s.end-s.pos {
		return fmt.Errorf("payload of %d bytes runs past the end of the data (%d bytes left)", n, s.end-s.pos)
	}
	s.pos += n
	return nil
}

func (s *bytesSource) stable() bool { return true }

func (s *bytesSource) close() error {
	if s.unmap && s.data != nil {
		err := mmapfile.Unmap(s.data)
		s.data = nil
		return err
	}
	return nil
}

// streamSource reads records from a stream through a large buffer; a
// record is valid until the next one is read.
type streamSource struct {
	r      *bufio.Reader
	closer io.Closer // the file, when Open opened it
	off    int64
	last   int // size of the record returned last, still in the buffer
}

func (s *streamSource) next() ([]byte, int64, error) {
	if s.last > 0 {
		s.r.Discard(s.last)
		s.off += int64(s.last)
		s.last = 0
	}
	h, err := s.r.Peek(eventHdr)
	if len(h) == 0 && errors.Is(err, io.EOF) {
		return nil, s.off, nil
	}
	if err != nil {
		return nil, s.off, fmt.Errorf("record header cut short (%d bytes left): %v", len(h), err)
	}
	size := int(le.Uint16(h[6:]))
	if size < eventHdr {
		return nil, s.off, fmt.Errorf("record size %d is smaller than its header (type %d)", size, le.Uint32(h))
	}
	b, err := s.r.Peek(size)
	if err != nil {
		return nil, s.off, fmt.Errorf("record of %d bytes (type %d) cut short at %d bytes: %v", size, le.Uint32(h), len(b), err)
	}
	s.last = size
	return b, s.off, nil
}

func (s *streamSource) skip(n int64) error {
	if s.last > 0 {
		s.r.Discard(s.last)
		s.off += int64(s.last)
		s.last = 0
	}
	if n < 0 {
		return fmt.Errorf("payload of %d bytes", n)
	}
	got, err := s.r.Discard(int(min(n, 1<<62)))
	s.off += int64(got)
	if err != nil {
		return fmt.Errorf("payload of %d bytes cut short at %d: %v", n, got, err)
	}
	return nil
}

func (s *streamSource) stable() bool { return false }
func (s *streamSource) close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
