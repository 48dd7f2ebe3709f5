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
)

// maxLine bounds a line; real ones are a few dozen bytes.
const maxLine = 1 << 20

// reader reads an unsymbolized profile line by line.
type reader struct {
	s    *bufio.Scanner
	name string
	line int
}

// Read reads an unsymbolized profile; offsets are turned back into
// canonical addresses by adding base. Repeated blocks are summed.
func Read(r io.Reader, name string, base uint64) (*aggregate.Counters, error) {
	rd := &reader{s: bufio.NewScanner(r), name: name}
	rd.s.Buffer(make([]byte, 0, 1<<16), maxLine)
	c := aggregate.NewCounters()
	for {
		n, ok, err := rd.count(true)
		if err != nil {
			return nil, err
		}
		if !ok {
			return c, nil
		}
		if err := rd.block(n, "-", func(a, b, k uint64) { c.Ranges[aggregate.Range{Start: a + base, End: b + base}] += k }); err != nil {
			return nil, err
		}
		if n, _, err = rd.count(false); err != nil {
			return nil, err
		}
		if err := rd.block(n, "->", func(a, b, k uint64) { c.Branches[aggregate.Branch{Source: a + base, Target: b + base}] += k }); err != nil {
			return nil, err
		}
	}
}

func (rd *reader) errorf(format string, args ...any) error {
	return &ParseError{File: rd.name, Line: rd.line, Msg: fmt.Sprintf(format, args...)}
}

// next returns the next line with leading spaces removed.
func (rd *reader) next() ([]byte, bool, error) {
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
	return bytes.TrimLeft(rd.s.Bytes(), " \t"), true, nil
}

// count reads a line holding a number of entries; at the end of input it
// returns ok=false if atEOFOK.
func (rd *reader) count(atEOFOK bool) (uint64, bool, error) {
	l, ok, err := rd.next()
	if err != nil {
		return 0, false, err
	}
	if !ok {
		if atEOFOK {
			return 0, false, nil
		}
		return 0, false, rd.errorf("unexpected end of profile: want a number of branches")
	}
	if len(l) > 0 && l[0] == '[' {
		return 0, false, rd.errorf("context-sensitive unsymbolized profiles are not supported")
	}
	n, err := strconv.ParseUint(string(l), 10, 64)
	if err != nil {
		return 0, false, rd.errorf("want a number of entries, got %s", quote.Bytes(l))
	}
	return n, true, nil
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
