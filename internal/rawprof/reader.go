package rawprof

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/quote"
	"github.com/profgen/profgen/internal/record"
)

// maxLine bounds a line; real ones are a few dozen bytes.
const maxLine = 1 << 20

// reader reads an unsymbolized profile line by line.
type reader struct {
	s       *bufio.Scanner
	name    string
	line    int
	peeked  bool // the current line was looked at but not consumed
	current []byte
}

func newReader(r io.Reader, name string) *reader {
	rd := &reader{s: bufio.NewScanner(r), name: name}
	rd.s.Buffer(make([]byte, 0, 1<<16), maxLine)
	return rd
}

// Read reads a context-insensitive unsymbolized profile; offsets are turned
// back into canonical addresses by adding base. Repeated blocks are summed.
func Read(r io.Reader, name string, base uint64) (*aggregate.Counters, error) {
	rd := newReader(r, name)
	c := aggregate.NewCounters()
	for {
		l, ok, err := rd.peek()
		if err != nil {
			return nil, err
		}
		if !ok {
			return c, nil
		}
		if len(l) > 0 && l[0] == '[' {
			return nil, rd.errorf("context-sensitive unsymbolized profile where a context-insensitive one was expected")
		}
		if err := rd.counters(c, base); err != nil {
			return nil, err
		}
	}
}

// counters reads a range block and a branch block into c.
func (rd *reader) counters(c *aggregate.Counters, base uint64) error {
	n, err := rd.count("ranges")
	if err != nil {
		return err
	}
	if err := rd.block(n, "-", func(a, b, k uint64) { c.Ranges[aggregate.Range{Start: a + base, End: b + base}] += k }); err != nil {
		return err
	}
	if n, err = rd.count("branches"); err != nil {
		return err
	}
	return rd.block(n, "->", func(a, b, k uint64) { c.Branches[record.Branch{From: a + base, To: b + base}] += k })
}

func (rd *reader) errorf(format string, args ...any) error {
	return &ParseError{File: rd.name, Line: rd.line, Msg: fmt.Sprintf(format, args...)}
}

// peek returns the next line with leading spaces removed, without
// consuming it.
func (rd *reader) peek() ([]byte, bool, error) {
	if rd.peeked {
		return rd.current, true, nil
	}
	if !rd.s.Scan() {
		if err := rd.s.Err(); errors.Is(err, bufio.ErrTooLong) {
			rd.line++
			return nil, false, rd.errorf("line longer than %d bytes: not an unsymbolized profile", maxLine)
		} else if err != nil {
			return nil, false, fmt.Errorf("%s: %w", rd.name, err)
		}
		return nil, false, nil
	}
	rd.line++
	rd.peeked, rd.current = true, bytes.TrimLeft(rd.s.Bytes(), " \t")
	return rd.current, true, nil
}

// skip consumes the peeked line.
func (rd *reader) skip() { rd.peeked = false }

// next returns the next line with leading spaces removed.
func (rd *reader) next() ([]byte, bool, error) {
	l, ok, err := rd.peek()
	rd.skip()
	return l, ok, err
}

// count reads a line holding the number of entries of a block.
func (rd *reader) count(what string) (uint64, error) {
	l, ok, err := rd.next()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, rd.errorf("unexpected end of profile: want a number of %s", what)
	}
	n, err := strconv.ParseUint(string(l), 10, 64)
	if err != nil {
		return 0, rd.errorf("want a number of %s, got %s", what, quote.Bytes(l))
	}
	return n, nil
}

// block reads n lines `from<sep>to:count`.
func (rd *reader) block(n uint64, sep string, add func(from, to, count uint64)) error {
	for ; n > 0; n-- {
		l, ok, err := rd.next()
		if err != nil {
			return err
		}
		if !ok {
			return rd.errorf("unexpected end of profile: %d entries missing", n)
		}
		from, to, count, ok := parseCounter(l, sep)
		if !ok {
			return rd.errorf("want <hex>%s<hex>:<count>, got %s", sep, quote.Bytes(l))
		}
		add(from, to, count)
	}
	return nil
}

func parseCounter(l []byte, sep string) (from, to, count uint64, ok bool) {
	colon := bytes.IndexByte(l, ':')
	if colon < 0 {
		return 0, 0, 0, false
	}
	i := bytes.Index(l[:colon], []byte(sep))
	if i < 0 {
		return 0, 0, 0, false
	}
	var e1, e2, e3 error
	from, e1 = strconv.ParseUint(string(l[:i]), 16, 64)
	to, e2 = strconv.ParseUint(string(l[i+len(sep):colon]), 16, 64)
	count, e3 = strconv.ParseUint(string(l[colon+1:]), 10, 64)
	return from, to, count, e1 == nil && e2 == nil && e3 == nil
}
