// Package dataaccess reads the memory-access samples of a `perf report -D`
// trace (perf record -d, e.g. -e MEM_INST_RETIRED.ALL_LOADS), the input
// of llvm-profgen 22's --data-access-perftrace.
//
// In: the trace text. Out: each sample's process, instruction address and
// data address, and the PERF_RECORD_MMAP/MMAP2 events, which place the
// profiled binary's segments in each process. A sample line is read as
// LLVM 22 does (PerfReaderBase::parseDataAccessPerfTraces):
//
//	TIME OFF [SIZE]: PERF_RECORD_SAMPLE(IP, 0x4002): PID/TID: 0xIP period: N addr: 0xADDR
//
// anything before PERF_RECORD_SAMPLE, and after the address, is ignored,
// and so is every other line.
package dataaccess

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/record"
)

// Sample is one memory access: the instruction at IP of process PID read
// or wrote Addr.
type Sample struct {
	PID      int32
	IP, Addr uint64
}

// Item is a sample or an event (PERF_RECORD_MMAP/MMAP2, FORK, EXIT,
// COMM), whichever IsEvent says.
type Item struct {
	IsEvent bool
	Sample  Sample
	Event   record.Record
}

// Trace is the samples and events of a trace, in order.
type Trace struct {
	Items []Item
}

// ParseError locates an unreadable line.
type ParseError struct {
	File string
	Line int
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *ParseError) Unwrap() error { return e.Err }

// Read reads the trace in r; name names it in errors.
func Read(r io.Reader, name string) (*Trace, error) {
	t := &Trace{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	for n := 1; sc.Scan(); n++ {
		if err := t.addLine(sc.Bytes(), name, n); err != nil {
			return nil, err
		}
	}
	return t, sc.Err()
}

var (
	sampleMarker = []byte("PERF_RECORD_SAMPLE(")
	eventMarker  = []byte("PERF_RECORD_")
)

func (t *Trace) addLine(line []byte, name string, n int) error {
	if i := bytes.Index(line, sampleMarker); i >= 0 {
		s, ok, err := parseSample(line[i+len(sampleMarker):])
		if err != nil {
			return &ParseError{name, n, err}
		}
		if ok {
			t.Items = append(t.Items, Item{Sample: s})
		}
		return nil
	}
	if !bytes.Contains(line, eventMarker) {
		return nil
	}
	rec, ok, err := perfscript.ParseEventLine(line, name, n)
	if err != nil {
		return err
	}
	if ok {
		t.Items = append(t.Items, Item{IsEvent: true, Event: rec})
	}
	return nil
}

// errPID and errAddr are LLVM's two errors of a sample line it matched.
var (
	errPID  = errors.New("failed to parse PID from perf trace line")
	errAddr = errors.New("failed to parse data address from perf trace line")
)

// parseSample reads what follows "PERF_RECORD_SAMPLE(": false when the
// text is not of the sample layout (LLVM's pattern does not match).
func parseSample(b []byte) (Sample, bool, error) {
	var s Sample
	p := cursor{b: b}
	ok := p.letters() && p.lit(", 0x") && p.hex() != nil && p.lit("): ")
	pid := p.digits()
	ok = ok && pid != nil && p.lit("/") && p.digits() != nil && p.lit(": 0x")
	ip := p.hex()
	ok = ok && ip != nil && p.lit(" period: ") && p.digits() != nil && p.lit(" addr: 0x")
	addr := p.hex()
	if !ok || addr == nil {
		return s, false, nil
	}
	v, err := strconv.ParseInt(string(pid), 10, 32)
	if err != nil {
		return s, false, errPID
	}
	s.PID = int32(v)
	if s.Addr, err = strconv.ParseUint(string(addr), 16, 64); err != nil {
		return s, false, errAddr
	}
	if v, err := strconv.ParseUint(string(ip), 16, 64); err == nil {
		s.IP = v // LLVM keeps 0 when it does not fit
	}
	return s, true, nil
}

// cursor walks the text of a sample line; once a step fails, every later
// one does.
type cursor struct {
	b      []byte
	failed bool
}

func (p *cursor) lit(s string) bool {
	if p.failed || !bytes.HasPrefix(p.b, []byte(s)) {
		p.failed = true
		return false
	}
	p.b = p.b[len(s):]
	return true
}

// span takes the longest run (at least one byte) of bytes in.
func (p *cursor) span(in func(byte) bool) []byte {
	i := 0
	for !p.failed && i < len(p.b) && in(p.b[i]) {
		i++
	}
	if i == 0 {
		p.failed = true
		return nil
	}
	tok := p.b[:i]
	p.b = p.b[i:]
	return tok
}

func (p *cursor) letters() bool {
	return p.span(func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }) != nil
}

func (p *cursor) digits() []byte { return p.span(func(c byte) bool { return c >= '0' && c <= '9' }) }

func (p *cursor) hex() []byte {
	return p.span(func(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' })
}
