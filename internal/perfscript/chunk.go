package perfscript

import (
	"bytes"
	"errors"
	"io"

	"github.com/profgen/profgen/internal/record"
)

// For parallel parsing the text is cut into chunks at record boundaries;
// each chunk is parsed by its own Scanner (NewChunkScanner). A chunk's
// side-band records (PERF_RECORD_*) can be read alone, in order, before its
// samples are parsed (Chunk.Events), so that the per-process table is
// known at the start of every chunk.

// Chunk is a part of the input that starts and ends at record boundaries.
type Chunk struct {
	Data      []byte
	FirstLine int // line number of its first line
	Index     int // 0, 1, 2… in input order
	Offset    int // of its first byte in the input
}

// Chunker cuts a stream, or a whole input in memory, into chunks of about
// size bytes.
type Chunker struct {
	r     io.Reader
	size  int
	free  chan []byte // buffers of parsed chunks, for reuse
	carry []byte      // the start of the next chunk
	line  int
	index int
	eof   bool
	next  int // the offset of the next chunk
	// whole, when not nil, is the whole input (a mapped file): chunks
	// are parts of it and no buffer is read or recycled; release, when not
	// nil, lets pages of it that are no longer used leave memory.
	whole   []byte
	release func([]byte)
}

// NewChunker reads r in chunks of about size bytes (more when a record
// boundary is not found in size bytes).
func NewChunker(r io.Reader, size int) *Chunker {
	return &Chunker{r: r, size: size, line: 1, free: make(chan []byte, 16)}
}

// NewChunkerOf cuts data, the whole input (a mapped file), into chunks of
// about size bytes that are parts of it: nothing is copied. release, when
// not nil, is given the pages of data that a recycled chunk spans, with a
// margin (releasePages), for mmapfile.Release: so that the resident set
// does not grow with the input.
func NewChunkerOf(data []byte, size int, release func([]byte)) *Chunker {
	return &Chunker{whole: data, size: size, line: 1, release: release}
}

// Recycle gives back the buffer of a chunk that is parsed (its records
// are no longer used), so that the next chunks reuse it: memory stays
// flat however long the input. It may be called from any goroutine.
func (c *Chunker) Recycle(ch Chunk) {
	if c.whole != nil {
		c.releasePages(ch)
		return
	}
	select {
	case c.free <- ch.Data[:0]:
	default:
	}
}

// releasePages releases the pages of the whole input that hold ch's
// bytes, and those of faultAround bytes on either side: the kernel maps
// the cached pages around each page fault, so that pages of chunks
// released before come back without being read, and would add up with
// the input's size. A page a chunk still being parsed touches again is
// only read back.
func (c *Chunker) releasePages(ch Chunk) {
	const page = 4096
	start := max(ch.Offset-faultAround, 0) &^ (page - 1)
	end := min(ch.Offset+len(ch.Data)+faultAround, len(c.whole))
	if c.release != nil && start < end {
		c.release(c.whole[start:end])
	}
}

// faultAround is how far around a page fault Linux maps pages of the
// page cache (fault_around_bytes, 64 KiB by default).
const faultAround = 64 << 10

// buffer returns an empty buffer of at least n bytes.
func (c *Chunker) buffer(n int) []byte {
	select {
	case b := <-c.free:
		if cap(b) >= n {
			return b
		}
	default:
	}
	return make([]byte, 0, n)
}

// Next returns the next chunk; io.EOF after the last. A chunk's data is
// its own until it is given back with Recycle.
func (c *Chunker) Next() (Chunk, error) {
	if c.whole != nil {
		return c.nextPart()
	}
	if c.eof && len(c.carry) == 0 {
		return Chunk{}, io.EOF
	}
	buf := append(c.buffer(max(c.size, 2*len(c.carry))), c.carry...)
	c.carry = c.carry[:0]
	for {
		if !c.eof {
			n, err := io.ReadFull(c.r, buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				c.eof = true
			} else if err != nil {
				return Chunk{}, err
			}
		}
		if c.eof && len(buf) == 0 {
			return Chunk{}, io.EOF
		}
		cut := len(buf)
		if !c.eof {
			cut = lastBoundary(buf)
		}
		if cut > 0 {
			c.carry = append(c.carry, buf[cut:]...)
			return c.chunk(buf[:cut]), nil
		}
		if len(buf) > maxChunk {
			return Chunk{}, errNoBoundary
		}
		buf = append(buf, make([]byte, len(buf))...)[:len(buf)] // grow, read more
	}
}

// maxChunk is how far a record boundary is looked for.
const maxChunk = MaxLineBytes * 4

var errNoBoundary = errors.New("no record boundary in 64 MiB of input: not perf script output?")

// chunk makes the next chunk of data.
func (c *Chunker) chunk(data []byte) Chunk {
	ch := Chunk{Data: data, FirstLine: c.line, Index: c.index, Offset: c.next}
	c.line += bytes.Count(data, []byte{'\n'})
	c.index++
	c.next += len(data)
	return ch
}

// nextPart returns the next chunk of whole: up to the last record
// boundary in about size bytes, or in twice as many when there is none.
func (c *Chunker) nextPart() (Chunk, error) {
	rest := c.whole[c.next:]
	if len(rest) == 0 {
		return Chunk{}, io.EOF
	}
	for n := c.size; ; n *= 2 {
		if n >= len(rest) {
			return c.chunk(rest), nil
		}
		if cut := lastBoundary(rest[:n]); cut > 0 {
			return c.chunk(rest[:cut]), nil
		}
		if n > maxChunk {
			return Chunk{}, errNoBoundary
		}
	}
}

// recordName starts the name of a side-band record.
var recordName = []byte("PERF_RECORD_")

// indexRecord returns the index of the first recordName in data, or -1.
// It looks for the name's '_' first, a byte branch stacks never print, so
// that an LBR trace is searched at the speed of bytes.IndexByte; where
// '_' is common (symbol names), it soon leaves the rest to bytes.Index.
func indexRecord(data []byte) int {
	const at = 4 // the '_' in recordName
	misses := 0
	for i := at; i < len(data); {
		j := bytes.IndexByte(data[i:], '_')
		if j < 0 {
			return -1
		}
		i += j
		if bytes.HasPrefix(data[i-at:], recordName) {
			return i - at
		}
		if misses++; misses > 16+i>>10 { // more than one '_' in a KiB
			if k := bytes.Index(data[i-at+1:], recordName); k >= 0 {
				return i - at + 1 + k
			}
			return -1
		}
		i++
	}
	return -1
}

// lastBoundary returns the start of the last line of b that begins a
// record after a complete one, or 0. Only whole lines count: the bytes
// after the last newline wait for the next read.
func lastBoundary(b []byte) int {
	end := bytes.LastIndexByte(b, '\n')
	for end > 0 {
		start := bytes.LastIndexByte(b[:end], '\n') + 1 // start of the line ending at end
		if start == 0 {
			return 0
		}
		prevStart := bytes.LastIndexByte(b[:start-1], '\n') + 1
		if isBoundary(b[prevStart:start-1], b[start:end]) {
			return start
		}
		end = start - 1
	}
	return 0
}

// isBoundary reports whether a record surely ends with line prev and
// another starts with line: prev is blank (perf ends a call-chain sample
// with one), an event, or holds a branch stack (a one-line LBR sample, or
// the branch stack that ends a hybrid sample); line is not a frame. (A
// srcline only follows a frame, and a repeat count holds no branch.)
func isBoundary(prev, line []byte) bool {
	if len(line) > 0 && line[0] == '\t' {
		return false
	}
	prev = trimNewline(prev)
	if len(trimSpace(prev)) == 0 {
		return true
	}
	return prev[0] != '\t' && (isEvent(prev) || HoldsBranchStack(prev))
}

// NewChunkScanner parses one chunk; pidColumn is what the events of the
// chunks before it said about the layout (Chunk.Events).
func NewChunkScanner(c Chunk, name string, pidColumn bool) *Scanner {
	s := &Scanner{data: c.Data, name: name, strs: map[string]string{}}
	s.lineNo = c.FirstLine - 1
	s.pidColumn = pidColumn
	return s
}

// Events parses the side-band records of the chunk alone, in order, and
// calls fn for each; pidColumn says whether the events so far (those of
// earlier chunks: pidColumn in) print a leading pid column. A malformed
// event is reported by the chunk's scanner, not here.
func (c Chunk) Events(name string, pidColumn bool, fn func(*record.Record)) bool {
	s := &Scanner{name: name, strs: map[string]string{}, pidColumn: pidColumn}
	data := c.Data
	for {
		i := indexRecord(data)
		if i < 0 {
			return s.pidColumn
		}
		start := bytes.LastIndexByte(data[:i], '\n') + 1
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += i
		}
		line := trimNewline(data[start:end])
		data = data[end:]
		if t := trimSpace(line); line[0] == '\t' || t[0] == '#' || t[0] == ';' || !isEvent(line) {
			continue // a frame's symbol, a comment, or far into a line: not an event
		}
		s.resetRecord()
		s.err = nil
		if s.parseEvent(line) {
			fn(&s.rec)
		}
	}
}
