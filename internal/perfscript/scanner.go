package perfscript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/hexnum"
	quotepkg "github.com/profgen/profgen/internal/quote"
	"github.com/profgen/profgen/internal/record"
)

// ParseError is a malformed line.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// MaxLineBytes bounds a line: memory stays bounded whatever the input (a
// 32-entry branch stack is about 1.5 KiB; a call chain is one line a frame).
const MaxLineBytes = 16 << 20

// Scanner reads Records from perf script text. Use it like bufio.Scanner:
//
//	for s.Next() { r := s.Record(); ... }
//	if err := s.Err(); err != nil { ... }
type Scanner struct {
	r    *bufio.Reader
	data []byte // the rest of the input when it is all in memory (a chunk); r is nil then
	name string

	line    []byte // current line, without the newline
	long    []byte // storage for lines longer than the reader's buffer
	lineNo  int
	pending bool // line was read but not consumed
	eof     bool

	rec       record.Record
	count     uint64 // repeat count read for the next sample, or 0
	countLine int
	inSample  bool // a call-chain sample is being collected
	bareStack bool // ... whose frames are space-indented addresses (barestack.go)
	// noStackUntil is the last line of a run of lone addresses known to
	// be no call chain.
	noStackUntil int
	pidColumn    bool // event lines carry a leading pid field (-F pid,...)
	strs         map[string]string
	stats        record.Stats
	skipped      skippedLines
	err          error
}

// readBufferSize is the read buffer: large, so that a read system call
// brings a MiB (the input is streamed, not mapped: memory stays flat
// whatever its size).
const readBufferSize = 1 << 20

// NewScanner reads perf script text from r; name is used in errors.
func NewScanner(r io.Reader, name string) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, readBufferSize), name: name, strs: map[string]string{}}
}

// record.Record returns the current record. Its slices are reused by Next.
func (s *Scanner) Record() *record.Record { return &s.rec }

// Err returns the first error, nil at the end of the input.
func (s *Scanner) Err() error { return s.err }

// record.Stats returns what was skipped so far.
func (s *Scanner) Stats() record.Stats {
	st := s.stats
	for _, l := range s.skipped.lines {
		st.Skipped = append(st.Skipped, record.LineText{Line: l.line, Text: string(s.skipped.text[l.start:l.end])})
	}
	return st
}

// skippedLines keeps the first record.MaxSkippedKept skipped lines in one buffer
// allocated once (no allocation per line).
type skippedLines struct {
	lines []skippedLine
	text  []byte
}

type skippedLine struct{ line, start, end int }

func (s *Scanner) keepSkipped(line []byte) {
	k := &s.skipped
	switch {
	case len(k.lines) == record.MaxSkippedKept:
		return
	case k.lines == nil:
		k.lines, k.text = make([]skippedLine, 0, record.MaxSkippedKept), make([]byte, 0, record.MaxSkippedKept*MaxQuotedBytes)
	}
	start := len(k.text)
	k.text = append(k.text, line[:min(len(line), MaxQuotedBytes)]...)
	k.lines = append(k.lines, skippedLine{s.lineNo, start, len(k.text)})
}

func (s *Scanner) errorf(format string, args ...any) bool {
	s.err = &ParseError{File: s.name, Line: s.lineNo, Msg: fmt.Sprintf(format, args...)}
	return false
}

// readLine makes s.line the next line; false at the end or on error.
func (s *Scanner) readLine() bool {
	if s.pending {
		s.pending = false
		return true
	}
	if s.eof {
		return false
	}
	if s.r == nil {
		return s.readMemLine()
	}
	s.long = s.long[:0]
	for {
		chunk, err := s.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(s.long)+len(chunk) > MaxLineBytes {
				s.lineNo++
				s.eof = true
				return s.errorf("line longer than %d MiB (perf prints a few KiB per sample): not perf script output?", MaxLineBytes>>20)
			}
			s.long = append(s.long, chunk...)
			continue
		}
		if err != nil && err != io.EOF {
			s.err = fmt.Errorf("%s: %w", s.name, err)
			s.eof = true
			return false
		}
		if err == io.EOF {
			s.eof = true
			if len(chunk) == 0 && len(s.long) == 0 {
				return false
			}
		}
		if len(s.long) > 0 {
			s.long = append(s.long, chunk...)
			chunk = s.long
		}
		s.line = trimNewline(chunk)
		s.lineNo++
		s.stats.Lines++
		return true
	}
}

// readMemLine is readLine for input held in memory: lines are cut from it
// without a copy.
func (s *Scanner) readMemLine() bool {
	if len(s.data) == 0 {
		s.eof = true
		return false
	}
	line := s.data
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line, s.data = line[:i], line[i+1:]
	} else {
		s.data = nil
	}
	if len(line) > MaxLineBytes {
		s.lineNo++
		s.eof = true
		return s.errorf("line longer than %d MiB (perf prints a few KiB per sample): not perf script output?", MaxLineBytes>>20)
	}
	s.line = trimNewline(line)
	s.lineNo++
	s.stats.Lines++
	return true
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func (s *Scanner) resetRecord() {
	smp := &s.rec.Sample
	*smp = record.Sample{Count: 1, Branches: smp.Branches[:0], Mispredicted: smp.Mispredicted[:0], Frames: smp.Frames[:0]}
	s.rec = record.Record{Sample: *smp}
}

// Next advances to the next record.
func (s *Scanner) Next() bool {
	if s.err != nil {
		return false
	}
	s.resetRecord()
	s.inSample, s.bareStack = false, false
	s.count, s.countLine = 0, 0
	for s.readLine() {
		if done, ok := s.consume(s.line); done {
			return ok
		}
	}
	if s.err != nil {
		return false
	}
	if s.inSample {
		s.inSample = false
		return true
	}
	if s.count != 0 {
		return s.errorf("repeat count on line %d is not followed by a sample", s.countLine)
	}
	return false
}

// consume handles one line; done is true when a record is complete (ok) or
// on error (!ok).
func (s *Scanner) consume(line []byte) (done, ok bool) {
	if s.inSample {
		return s.continueSample(line)
	}
	if isBareFrame(line) {
		s.bareStack = s.bareStackAhead()
		line = s.line // bareStackAhead may have moved it out of the read buffer
	}
	trimmed := trimSpace(line)
	switch {
	case len(trimmed) == 0, trimmed[0] == ';', trimmed[0] == '#':
		s.stats.Units++
		return false, true
	case line[0] == '\t', s.bareStack:
		s.startSample()
		if _, ok := s.continueSample(line); !ok {
			return true, false
		}
		return false, true
	case isEvent(line):
		if s.count != 0 {
			return true, s.errorf("repeat count on line %d is followed by an event, not a sample", s.countLine)
		}
		if !bytes.Contains(line, []byte("PERF_RECORD_MMAP")) {
			s.stats.Units++
		}
		if s.parseEvent(line) {
			return true, true
		}
		return s.err != nil, s.err == nil
	case isDecimal(line): // pre-aggregated repeat count, no surrounding space
		return s.readCount(line)
	}
	return s.sampleLine(line)
}

func (s *Scanner) readCount(line []byte) (done, ok bool) {
	if s.count != 0 {
		return true, s.errorf("two repeat count lines in a row")
	}
	s.count, s.countLine = mustDec(line), s.lineNo
	if s.count == 0 {
		return true, s.errorf("repeat count is 0")
	}
	return false, true
}

func (s *Scanner) sampleLine(line []byte) (done, ok bool) {
	s.startSample()
	switch s.parseSampleLine(line) {
	case lineSample:
		return true, true
	case lineHeader:
		s.stats.Units++ // llvm-profgen reads the samples after a pid line of its own apart
		s.inSample = true
		return false, true
	}
	s.stats.SkippedLines++
	s.keepSkipped(line)
	s.resetRecord() // drop what the line set before it turned out unknown
	return false, true
}

func mustDec(b []byte) uint64 {
	v, _ := parseDec(b)
	return v
}

func (s *Scanner) startSample() {
	s.stats.Units++
	s.rec.Kind = record.KindSample
	s.rec.Line = s.lineNo
	if s.count != 0 {
		s.rec.Sample.Count = s.count
		s.count = 0
	}
}

// continueSample consumes line as part of a call-chain sample. done is
// true when the sample is complete; ok is false on error.
func (s *Scanner) continueSample(line []byte) (done, ok bool) {
	if len(line) > 0 && line[0] == '\t' || s.bareStack && isBareFrame(line) {
		if !s.parseFrame(line) {
			return true, false
		}
		s.inSample = true
		return false, true
	}
	trimmed := trimSpace(line)
	if len(s.rec.Sample.Frames) > 0 && isSrcline(line, trimmed) {
		return false, true // -F srcline: the source line of the frame above
	}
	s.inSample = false
	if len(trimmed) == 0 {
		return true, true
	}
	if isEntry(firstField(trimmed)) {
		s.parseBranches(trimmed)
		return true, true
	}
	s.pending = true // the line starts the next record
	return true, true
}

// isSrcline reports whether a line inside a call chain is the srcline field
// perf prints under a frame: two spaces, then `file:line` (`??:0` when
// unknown) or `dso[addr]` for code without line information.
func isSrcline(line, trimmed []byte) bool {
	if len(line) < 3 || line[0] != ' ' || line[1] != ' ' || line[2] == ' ' || isEvent(line) {
		return false
	}
	if colon := bytes.LastIndexByte(trimmed, ':'); colon > 0 && isDecimal(trimmed[colon+1:]) {
		return true
	}
	open := bytes.LastIndexByte(trimmed, '[')
	if open <= 0 || trimmed[len(trimmed)-1] != ']' {
		return false
	}
	_, ok := parseHex(trimmed[open+1 : len(trimmed)-1])
	return ok
}

func firstField(b []byte) []byte {
	f, _ := nextField(b)
	return f
}

// parseFrame parses "\t  addr [sym+off] [(dso)]".
func (s *Scanner) parseFrame(line []byte) bool {
	addrTok, rest := nextField(line)
	addr, ok := parseHex(addrTok)
	if !ok {
		return s.errorf("call chain frame: bad address %s", quote(addrTok))
	}
	rest = trimSpace(rest)
	var sym, dso []byte
	if n := len(rest); n > 0 && rest[n-1] == ')' {
		if i := bytes.LastIndex(rest, []byte("(")); i >= 0 && (i == 0 || rest[i-1] == ' ') {
			dso, rest = rest[i+1:n-1], trimSpace(rest[:i])
		}
	}
	sym = rest
	f := record.Frame{Addr: addr, Symbol: s.intern(sym), DSO: s.intern(dso)}
	f.Relative = f.DSO != "" && f.DSO != "[unknown]" && !record.IsKernelDSO(f.DSO)
	s.rec.Sample.Frames = append(s.rec.Sample.Frames, f)
	return true
}

// intern returns a shared string for b, so that repeated symbol and DSO
// names cost one allocation each.
func (s *Scanner) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if v, ok := s.strs[string(b)]; ok {
		return v
	}
	if len(s.strs) > 1<<20 {
		clear(s.strs)
	}
	v := string(b)
	s.strs[v] = v
	return v
}

// parseBranches parses brstack entries until the end of b or a bad entry.
// It is the hot path: one pass over the bytes, no allocation.
func (s *Scanner) parseBranches(b []byte) {
	smp := &s.rec.Sample
	i, n := 0, len(b)
	for {
		for i < n && isSpace(b[i]) {
			i++
		}
		if i >= n {
			return
		}
		from, j, ok := hexAfter0x(b, i)
		j = skipDSO(b, j)
		if !ok || j >= n || b[j] != '/' {
			s.badBranch()
			return
		}
		to, k, ok := hexAfter0x(b, j+1)
		k = skipDSO(b, k)
		if !ok || (k < n && b[k] != '/' && !isSpace(b[k])) {
			s.badBranch()
			return
		}
		if k+1 < n && b[k] == '/' && b[k+1] == 'M' {
			smp.MarkMispredicted(len(smp.Branches))
		}
		smp.Branches = append(smp.Branches, record.Branch{From: from, To: to})
		for k < n && !isSpace(b[k]) {
			k++
		}
		i = k
	}
}

// badBranch marks the sample's branch stack as cut at a bad entry of the
// current line, keeping the line's number and its first bytes.
func (s *Scanner) badBranch() {
	smp := &s.rec.Sample
	smp.BadBranch = true
	smp.BadBranchLine = s.lineNo
	smp.BadBranchText = string(s.line[:min(len(s.line), MaxQuotedBytes)])
}

// skipDSO skips the `(dso)` perf prints after a brstack address with the
// dso field (-F ip,dso,brstack), returning the index after it.
func skipDSO(b []byte, i int) int {
	if i >= len(b) || b[i] != '(' {
		return i
	}
	if j := indexByte(b[i:], ')'); j > 0 {
		return i + j + 1
	}
	return i
}

// hexAfter0x parses "0x<hex>" at b[i:] and returns the value and the index
// after the digits.
func hexAfter0x(b []byte, i int) (v uint64, end int, ok bool) {
	if i+2 >= len(b) || b[i] != '0' || (b[i+1] != 'x' && b[i+1] != 'X') {
		return 0, i, false
	}
	i += 2
	start := i
	for ; i < len(b); i++ {
		d := hexnum.Digit(b[i])
		if d == 0xff {
			break
		}
		v = v<<4 | uint64(d)
	}
	return v, i, i > start && i-start <= 16
}

// isEvent reports whether line is a PERF_RECORD_* event. The name comes
// after at most the default leading fields, so only the start of the line
// is searched (a brstack line can be kilobytes long).
func isEvent(line []byte) bool {
	return bytes.Contains(line[:min(len(line), 192)], []byte("PERF_RECORD_"))
}

// quote quotes at most 80 bytes of bad input for an error message.
// MaxQuotedBytes is how much of a bad input line a message quotes.
const MaxQuotedBytes = quotepkg.MaxBytes

func quote(b []byte) string { return quotepkg.Bytes(b) }
