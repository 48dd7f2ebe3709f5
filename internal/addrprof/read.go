package addrprof

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/quote"
)

// maxLine bounds a line: a stack of a thousand frames is some 20 KB.
const maxLine = 16 << 20

// ParseError is a malformed line of an address profile.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// ErrNotAddressProfile is wrapped by the error of a file that does not
// start with Header.
var ErrNotAddressProfile = errors.New("not a profgen address profile")

// reader holds what the lines read so far made.
type reader struct {
	name   string
	line   int
	p      *Profile
	stacks map[string]*aggregate.Stack
	key    []byte
}

// Read reads an address profile; name is the file's, for errors. Stacks
// written more than once are summed. The profile comes in canonical order.
func Read(r io.Reader, name string) (*Profile, error) {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 1<<16), maxLine)
	rd := &reader{name: name, stacks: map[string]*aggregate.Stack{},
		p: &Profile{Counts: &aggregate.StackCounts{Symbols: map[aggregate.Loc]string{}, Events: map[string]uint64{}}}}
	for s.Scan() {
		rd.line++
		if err := rd.parseLine(s.Text()); err != nil {
			return nil, err
		}
	}
	if err := s.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, rd.errorf("line %d longer than %d bytes", rd.line+1, maxLine)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if rd.line == 0 {
		return nil, fmt.Errorf("%s: %w: the file is empty", name, ErrNotAddressProfile)
	}
	for _, st := range rd.stacks {
		rd.p.Counts.Stacks = append(rd.p.Counts.Stacks, st)
	}
	return Canonical(rd.p), nil
}

func (rd *reader) errorf(format string, args ...any) error {
	return &ParseError{File: rd.name, Line: rd.line, Msg: fmt.Sprintf(format, args...)}
}

// parseLine adds what one line says.
func (rd *reader) parseLine(l string) error {
	if rd.line == 1 {
		if l != Header {
			return fmt.Errorf("%s:1: %w: want %s, got %s", rd.name, ErrNotAddressProfile, quote.String(Header), quote.String(l))
		}
		return nil
	}
	keyword, rest, _ := strings.Cut(l, " ")
	switch keyword {
	case "binary":
		return rd.binary(rest)
	case "object":
		return rd.object(rest)
	case "event":
		return rd.event(rest)
	case "time":
		return rd.time(rest)
	case "stat":
		return rd.stat(rest)
	case "stack":
		return rd.stack(rest)
	case "symbol":
		return rd.symbol(rest)
	}
	return rd.errorf("unknown line %s (want binary, object, event, time, stat, stack or symbol)", quote.String(l))
}

// fields splits rest into n-1 space-separated fields and a final quoted
// string.
func (rd *reader) fields(rest string, n int) ([]string, string, error) {
	f := strings.SplitN(rest, " ", n)
	if len(f) != n {
		return nil, "", rd.errorf("want %d fields, got %s", n, quote.String(rest))
	}
	s, err := strconv.Unquote(f[n-1])
	if err != nil {
		return nil, "", rd.errorf("want a quoted string, got %s", quote.String(f[n-1]))
	}
	return f[:n-1], s, nil
}

func (rd *reader) number(s string, base int, what string) (uint64, error) {
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, rd.errorf("want %s, got %s", what, quote.String(s))
	}
	return n, nil
}

// binary reads `<build id or -> <leaf samples> "<path>"`.
func (rd *reader) binary(rest string) error {
	f, path, err := rd.fields(rest, 3)
	if err != nil {
		return err
	}
	if len(rd.p.Counts.Objects) > 0 {
		return rd.errorf("binary after the first object")
	}
	leaves, err := rd.number(f[1], 10, "a number of leaf samples")
	if err != nil {
		return err
	}
	id := f[0]
	if id == "-" {
		id = ""
	} else if !isLowerHex(id) {
		return rd.errorf("want a lower-case hex build id or -, got %s", quote.String(f[0]))
	}
	rd.p.Binaries = append(rd.p.Binaries, Binary{BuildID: id, Path: path})
	rd.p.Counts.Stats.PerBinary = append(rd.p.Counts.Stats.PerBinary, leaves)
	return nil
}

// object reads `<kind> <binary or -> <first ns> <first sample> <first
// frame> "<path>"`.
func (rd *reader) object(rest string) error {
	f, path, err := rd.fields(rest, 6)
	if err != nil {
		return err
	}
	o := aggregate.Object{Path: path, Binary: -1}
	if o.Binary, err = rd.objectBinary(f[0], f[1]); err != nil {
		return err
	}
	o.Kernel = f[0] == "kernel"
	if o.First.NS, err = rd.number(f[2], 10, "a timestamp"); err != nil {
		return err
	}
	if o.First.Sample, err = rd.number(f[3], 10, "a sample number"); err != nil {
		return err
	}
	frame, err := rd.number(f[4], 10, "a frame position")
	if err != nil || frame > 1<<20 {
		return rd.errorf("want a frame position, got %s", quote.String(f[4]))
	}
	o.First.Frame = int(frame)
	rd.p.Counts.Objects = append(rd.p.Counts.Objects, o)
	return nil
}

// objectBinary reads an object's kind and binary index.
func (rd *reader) objectBinary(kind, bin string) (int, error) {
	switch {
	case (kind == "dso" || kind == "kernel") && bin == "-":
		return -1, nil
	case kind != "binary":
		return 0, rd.errorf("want an object kind binary, dso or kernel (with - as binary), got %s %s", quote.String(kind), quote.String(bin))
	}
	i, err := strconv.Atoi(bin)
	if err != nil || i < 0 || i >= len(rd.p.Binaries) {
		return 0, rd.errorf("object of binary %s, but %d binaries are listed", quote.String(bin), len(rd.p.Binaries))
	}
	return i, nil
}

// event reads `<samples> "<name>"`.
func (rd *reader) event(rest string) error {
	f, name, err := rd.fields(rest, 2)
	if err != nil {
		return err
	}
	n, err := rd.number(f[0], 10, "a number of samples")
	if err != nil {
		return err
	}
	rd.p.Counts.Events[name] += n
	return nil
}

// time reads `<first ns> <last ns>`.
func (rd *reader) time(rest string) error {
	first, last, ok := strings.Cut(rest, " ")
	if !ok {
		return rd.errorf("want <first ns> <last ns>, got %s", quote.String(rest))
	}
	var err error
	c := rd.p.Counts
	if c.FirstNS, err = rd.number(first, 10, "a timestamp"); err != nil {
		return err
	}
	c.LastNS, err = rd.number(last, 10, "a timestamp")
	return err
}

// stat reads `<name> <count>`.
func (rd *reader) stat(rest string) error {
	name, n, _ := strings.Cut(rest, " ")
	for _, st := range statFields(&rd.p.Counts.Stats) {
		if st.name == name {
			v, err := rd.number(n, 10, "a count")
			*st.n += v
			return err
		}
	}
	return rd.errorf("unknown statistic %s", quote.String(name))
}

// stack reads `<count> <period> <obj>:<hex addr>...`.
func (rd *reader) stack(rest string) error {
	f := strings.Split(rest, " ")
	if len(f) < 3 {
		return rd.errorf("want <count> <period> and at least one frame, got %s", quote.String(rest))
	}
	count, err := rd.number(f[0], 10, "a count")
	if err != nil {
		return err
	}
	period, err := rd.number(f[1], 10, "a period")
	if err != nil {
		return err
	}
	locs := make([]aggregate.Loc, len(f)-2)
	for i, s := range f[2:] {
		if locs[i], err = rd.loc(s); err != nil {
			return err
		}
	}
	rd.addStack(locs, count, period)
	return nil
}

func (rd *reader) addStack(locs []aggregate.Loc, count, period uint64) {
	rd.key = aggregate.AppendKey(rd.key[:0], locs)
	st := rd.stacks[string(rd.key)]
	if st == nil {
		st = &aggregate.Stack{Locs: locs}
		rd.stacks[string(rd.key)] = st
	}
	st.Count += count
	st.Period += period
}

// loc reads `<obj>:<hex addr>`.
func (rd *reader) loc(s string) (aggregate.Loc, error) {
	obj, addr, ok := strings.Cut(s, ":")
	i, err1 := strconv.Atoi(obj)
	a, err2 := strconv.ParseUint(addr, 16, 64)
	if !ok || err1 != nil || err2 != nil {
		return aggregate.Loc{}, rd.errorf("want a frame <object>:<hex address>, got %s", quote.String(s))
	}
	if i < 0 || i >= len(rd.p.Counts.Objects) {
		return aggregate.Loc{}, rd.errorf("frame %s of object %d, but %d objects are listed", quote.String(s), i, len(rd.p.Counts.Objects))
	}
	return aggregate.Loc{Obj: int32(i), Addr: a}, nil
}

// symbol reads `<obj>:<hex addr> "<name>"`; of two names of one place
// the lesser is kept, as Merge does.
func (rd *reader) symbol(rest string) error {
	f, name, err := rd.fields(rest, 2)
	if err != nil {
		return err
	}
	l, err := rd.loc(f[0])
	if err != nil {
		return err
	}
	rd.p.Counts.Symbols[l] = lesserName(rd.p.Counts.Symbols, l, name)
	return nil
}

// lesserName is name, or the name syms has for l when that is less.
func lesserName(syms map[aggregate.Loc]string, l aggregate.Loc, name string) string {
	if old, ok := syms[l]; ok && old < name {
		return old
	}
	return name
}

func isLowerHex(s string) bool {
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return s != ""
}
