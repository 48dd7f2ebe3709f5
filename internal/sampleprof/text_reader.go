package sampleprof

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// ReadText reads a profile in LLVM's text format with the semantics of
// LLVM's SampleProfileReaderText: blank lines and lines starting with '#'
// are skipped, a repeated function or record adds to the earlier one,
// indentation gives the inline depth.
func ReadText(r io.Reader) (*Profile, error) {
	tr := &textReader{in: bufio.NewReaderSize(r, 1<<16), p: NewProfile()}
	for {
		line, err := tr.next()
		if err == io.EOF {
			tr.p.readerMapOrder()
			return tr.p, nil
		}
		if err != nil {
			return nil, err
		}
		if err := tr.parse(line); err != nil {
			return nil, &FormatError{Line: tr.line, Err: err}
		}
	}
}

type textReader struct {
	in    *bufio.Reader
	line  int
	buf   []byte
	p     *Profile
	stack []*FunctionSamples // inline stack: top-level function first
	// metaDepth is the depth of the last metadata line of the current
	// function, 0 if none: samples may not follow it at that depth.
	metaDepth int
	// names interns names, so that a profile does not keep every line
	// a name was cut from alive.
	names map[string]string
}

func (t *textReader) intern(s string) string {
	if n, ok := t.names[s]; ok {
		return n
	}
	if t.names == nil {
		t.names = map[string]string{}
	}
	n := strings.Clone(s)
	t.names[n] = n
	return n
}

// next returns the next line that is neither blank nor a comment, without
// its line ending. Lines may be longer than the buffer.
func (t *textReader) next() (string, error) {
	for {
		t.buf = t.buf[:0]
		for {
			chunk, err := t.in.ReadSlice('\n')
			t.buf = append(t.buf, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil && (err != io.EOF || len(t.buf) == 0) {
				return "", err
			}
			break
		}
		t.line++
		line := bytes.TrimRight(t.buf, "\r\n")
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		return string(line), nil
	}
}

func (t *textReader) parse(line string) error {
	if line[0] != ' ' {
		return t.parseHead(line)
	}
	depth := len(line) - len(strings.TrimLeft(line, " "))
	if len(t.stack) == 0 {
		return fmt.Errorf("sample line before any function header: %s", excerpt(line))
	}
	if len(t.stack) > depth {
		t.stack = t.stack[:depth]
	}
	if line[depth] == '!' {
		t.metaDepth = depth
		return t.parseMetadata(line[depth:])
	}
	if depth == t.metaDepth {
		return fmt.Errorf("found non-metadata after metadata: %s", excerpt(line))
	}
	if loc, types, ok := vtablesLine(line[depth:]); ok {
		if err := t.parseVTables(loc, types); err != nil {
			return fmt.Errorf("%w, found %s", err, excerpt(line))
		}
		return nil
	}
	if !t.parseLine(line[depth:]) {
		return fmt.Errorf("expected 'NUM[.NUM]: NUM[ mangled_name:NUM]*', found %s", excerpt(line))
	}
	return nil
}

// vtablesLine splits "loc: vtables pairs" into its location and pairs.
func vtablesLine(s string) (LineLocation, string, bool) {
	colon := strings.IndexByte(s, ':')
	if colon < 0 || !strings.HasPrefix(s[colon:], ": "+vtablesPrefix) {
		return LineLocation{}, "", false
	}
	loc, ok := parseLocation(s[:colon])
	return loc, s[colon+2+len(vtablesPrefix):], ok
}

// flatMetadata marks a top-level function of the flat section of a split
// layout (LLVM 22); it means nothing to a reader.
const flatMetadata = "!Flat"

// parseMetadata reads "!CFGChecksum: N" (pseudo-probe profiles),
// "!Attributes: N" (context attributes) or, for a top-level function,
// "!Flat".
func (t *textReader) parseMetadata(s string) error {
	if s == flatMetadata && len(t.stack) == 1 {
		return nil
	}
	name, value, _ := strings.Cut(s, ":")
	f := t.stack[len(t.stack)-1]
	switch name {
	case "!CFGChecksum":
		n, ok := parseUint(strings.TrimSpace(value), 64)
		if ok {
			f.Checksum = n
			t.p.ProbeBased = true
			return nil
		}
	case "!Attributes":
		n, ok := parseUint(strings.TrimSpace(value), 32)
		if ok {
			f.Attributes = uint32(n)
			t.p.PreInlined = t.p.PreInlined || n&ContextShouldBeInlined != 0
			return nil
		}
	}
	return fmt.Errorf("expected '!CFGChecksum: NUM' or '!Attributes: NUM', found %s", excerpt(s))
}

// parseHead reads "name:total:head"; the name may hold colons.
func (t *textReader) parseHead(line string) error {
	name, total, head, ok := splitHead(line)
	if !ok {
		return fmt.Errorf("expected 'mangled_name:NUM:NUM', found %s", excerpt(line))
	}
	cs := strings.HasPrefix(name, "[")
	if len(t.p.Functions) > 0 && cs != t.p.CS {
		return fmt.Errorf("context-sensitive and context-less profiles mixed: %s", excerpt(line))
	}
	var f *FunctionSamples
	if cs {
		if len(name) < 3 || name[len(name)-1] != ']' {
			return fmt.Errorf("expected '[context]:NUM:NUM', found %s", excerpt(line))
		}
		ctx, err := ParseContext(name[1 : len(name)-1])
		if err != nil {
			return err
		}
		for i := range ctx {
			ctx[i].Func = t.intern(ctx[i].Func)
		}
		t.p.CS = true
		f = t.p.ContextProfile(ctx)
	} else {
		f = t.p.insertFunction(t.intern(name))
	}
	f.TotalSamples = addSat(f.TotalSamples, total)
	f.HeadSamples = addSat(f.HeadSamples, head)
	t.stack = append(t.stack[:0], f)
	t.metaDepth = 0
	return nil
}

// splitHead splits a function header "name:total:head" at its last two
// colons, as LLVM does.
func splitHead(line string) (name string, total, head uint64, ok bool) {
	n2 := strings.LastIndexByte(line, ':')
	if n2 <= 0 {
		return "", 0, 0, false
	}
	n1 := strings.LastIndexByte(line[:n2], ':')
	if n1 < 0 {
		return "", 0, 0, false
	}
	total, ok1 := parseUint(line[n1+1:n2], 64)
	head, ok2 := parseUint(line[n2+1:], 64)
	return line[:n1], total, head, ok1 && ok2
}

// parseLine reads "loc: count [target:count]..." or "loc: callee:total"
// after the indentation.
func (t *textReader) parseLine(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon < 0 || colon+2 > len(s) {
		return false
	}
	loc, ok := parseLocation(s[:colon])
	if !ok {
		return false
	}
	rest := s[colon+2:]
	if rest == "" {
		return false
	}
	if rest[0] >= '0' && rest[0] <= '9' {
		return t.parseBody(loc, rest)
	}
	return t.parseCallsite(loc, rest)
}

func parseLocation(s string) (LineLocation, bool) {
	line, disc, hasDisc := strings.Cut(s, ".")
	off, ok := parseUint(line, 32)
	if !ok {
		return LineLocation{}, false
	}
	var d uint64
	if hasDisc {
		if d, ok = parseUint(disc, 32); !ok {
			return LineLocation{}, false
		}
	}
	return LineLocation{uint32(off), uint32(d)}, true
}

func (t *textReader) parseCallsite(loc LineLocation, rest string) bool {
	n := strings.LastIndexByte(rest, ':')
	if n < 0 {
		return false
	}
	total, ok := parseUint(rest[n+1:], 64)
	if !ok {
		return false
	}
	c := t.stack[len(t.stack)-1].Inlinee(loc, t.intern(rest[:n]))
	c.TotalSamples = addSat(c.TotalSamples, total)
	t.stack = append(t.stack, c)
	t.metaDepth = 0
	return true
}

func (t *textReader) parseBody(loc LineLocation, rest string) bool {
	countStr, targetStr, _ := strings.Cut(rest, " ")
	count, ok := parseUint(countStr, 64)
	if !ok {
		return false
	}
	targets, ok := parseTargets(targetStr, rest != countStr)
	if !ok {
		return false
	}
	f := t.stack[len(t.stack)-1]
	for _, ct := range targets {
		f.addCallTargetSat(loc, t.intern(ct.Name), ct.Count)
	}
	r := f.Record(loc)
	r.Samples = addSat(r.Samples, count)
	return true
}

// parseTargets reads "name:count name:count ...". A name may hold colons
// and spaces: a target ends at the first ":NUM" followed by a space or the
// end of the line. A later duplicate replaces an earlier one, as in LLVM.
func parseTargets(s string, present bool) ([]CallTarget, bool) {
	var ts targetList
	for present {
		s = strings.TrimLeft(s, " ")
		name, count, rest, ok := nextTarget(s)
		if !ok {
			return nil, false
		}
		ts.set(name, count)
		if rest < 0 {
			break
		}
		s = s[rest:]
	}
	return ts.list, true
}

// nextTarget finds the first "name:count" of s and where the text after
// it starts (-1 at the end of s).
func nextTarget(s string) (name string, count uint64, rest int, ok bool) {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return "", 0, 0, false
	}
	for {
		end := strings.IndexByte(s[colon+1:], ' ')
		if end >= 0 {
			end += colon + 1
		} else {
			end = len(s)
		}
		if c, ok := parseUint(s[colon+1:end], 64); ok {
			if end == len(s) {
				end = -1
			}
			return s[:colon], c, end, true
		}
		next := strings.IndexByte(s[colon+1:], ':')
		if next < 0 {
			return "", 0, 0, false
		}
		colon += next + 1
	}
}

// targetList keeps call targets in the order first seen; past a few, an
// index finds repeated names, so that a line of a million targets is read
// in linear time.
type targetList struct {
	list  []CallTarget
	index map[string]int
}

const linearTargets = 16

func (l *targetList) set(name string, count uint64) {
	if i, ok := l.find(name); ok {
		l.list[i].Count = count
		return
	}
	l.list = append(l.list, CallTarget{name, count})
	switch {
	case len(l.list) == linearTargets+1:
		l.index = make(map[string]int, 2*linearTargets)
		for i, t := range l.list {
			l.index[t.Name] = i
		}
	case len(l.list) > linearTargets+1:
		l.index[name] = len(l.list) - 1
	}
}

func (l *targetList) find(name string) (int, bool) {
	if l.index != nil {
		i, ok := l.index[name]
		return i, ok
	}
	for i := range l.list {
		if l.list[i].Name == name {
			return i, true
		}
	}
	return 0, false
}

// parseUint accepts decimal digits only, as LLVM's getAsInteger(10, ...).
func parseUint(s string, bitSize int) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	if bitSize < 64 && v >= 1<<bitSize {
		return 0, false
	}
	return v, true
}
