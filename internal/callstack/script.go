package callstack

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ScriptReader reads call-stack perf script text, one record at a time, in
// the layouts perf prints with default fields, -F pid,ip,sym,dso (and
// subsets with period and event), with or without --show-mmap-events and
// --show-task-events.
//
// It stands in for the perf script parser of internal/perfscript until
// that parser reads call chains.
type ScriptReader struct {
	r      *bufio.Reader
	name   string
	line   int
	record any
	err    error
	peeked *string
	// peekedLine is the number of the peeked line; lastLine the number of
	// the line readLine returned last; recordLine where the record began.
	peekedLine, lastLine, recordLine int
}

// NewScriptReader reads perf script text from r; name is used in errors.
func NewScriptReader(r io.Reader, name string) *ScriptReader {
	return &ScriptReader{r: bufio.NewReaderSize(r, 1<<16), name: name}
}

// Next advances to the next record; it returns false at the end or on error.
func (s *ScriptReader) Next() bool {
	for s.err == nil {
		line, ok := s.readLine()
		if !ok {
			return false
		}
		s.recordLine = s.lastLine
		rec, err := s.parse(line)
		if err != nil {
			s.err = fmt.Errorf("%s:%d: %w", s.name, s.lastLine, err)
			return false
		}
		if rec != nil {
			s.record = rec
			return true
		}
	}
	return false
}

// Record returns the current record: *Sample, *Mmap, *Fork, *Exit or *Exec.
func (s *ScriptReader) Record() any { return s.record }

// Line returns the line number where the current record began.
func (s *ScriptReader) Line() int { return s.recordLine }

// Err returns the first error met, with file and line.
func (s *ScriptReader) Err() error { return s.err }

func (s *ScriptReader) readLine() (string, bool) {
	if s.peeked != nil {
		l := *s.peeked
		s.peeked = nil
		s.lastLine = s.peekedLine
		return l, true
	}
	l, err := s.r.ReadString('\n')
	if err != nil && (err != io.EOF || l == "") {
		if err != io.EOF {
			s.err = fmt.Errorf("%s: %w", s.name, err)
		}
		return "", false
	}
	s.line++
	s.lastLine = s.line
	return strings.TrimRight(l, "\r\n"), true
}

func (s *ScriptReader) unread(l string) { s.peeked, s.peekedLine = &l, s.lastLine }

// framesFollow reports whether the next line is a call-chain frame.
func (s *ScriptReader) framesFollow() bool {
	l, ok := s.readLine()
	if !ok {
		return false
	}
	s.unread(l)
	return strings.HasPrefix(l, "\t")
}

func (s *ScriptReader) parse(line string) (any, error) {
	switch {
	case strings.TrimSpace(line) == "":
		return nil, nil
	case strings.HasPrefix(line, "\t"):
		// Frames without a header line: the -F ip layout.
		s.unread(line)
		return s.readSample(&Sample{PID: -1})
	case strings.Contains(line, "PERF_RECORD_"):
		return parseEvent(line)
	}
	smp, err := parseHeader(line, s.framesFollow())
	if err != nil {
		return nil, err
	}
	return s.readSample(smp)
}

// readSample reads the tab-indented frame lines that follow a header. perf
// ends a call chain with a blank line; lines between frames that are not
// tab-indented (the srcline field, "  file.c:12") are skipped.
func (s *ScriptReader) readSample(smp *Sample) (*Sample, error) {
	inChain := false
	for {
		line, ok := s.readLine()
		if !ok {
			return smp, nil
		}
		if !strings.HasPrefix(line, "\t") {
			if inChain && strings.TrimSpace(line) != "" && !strings.Contains(line, "PERF_RECORD_") {
				continue // srcline of the previous frame
			}
			s.unread(line)
			return smp, nil
		}
		f, err := parseFrame(line)
		if err != nil {
			return nil, err
		}
		inChain = true
		smp.Frames = append(smp.Frames, f)
	}
}

// parseFrame parses "\t<hex addr> [symbol[+0xoff]] [(dso)]".
func parseFrame(line string) (Frame, error) {
	rest := strings.TrimSpace(line)
	addrText, rest, _ := strings.Cut(rest, " ")
	addr, err := strconv.ParseUint(addrText, 16, 64)
	if err != nil {
		return Frame{}, fmt.Errorf("bad frame address %q", addrText)
	}
	f := Frame{Addr: addr}
	f.Symbol, f.DSO = splitSymbolDSO(strings.TrimSpace(rest))
	return f, nil
}

// splitSymbolDSO splits "sym+0x12 (/path/dso)" into "sym" and "/path/dso".
func splitSymbolDSO(s string) (sym, dso string) {
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndex(s, " ("); i >= 0 {
			sym, dso = s[:i], s[i+2:len(s)-1]
		} else if strings.HasPrefix(s, "(") {
			sym, dso = "", s[1:len(s)-1]
		} else {
			sym = s
		}
	} else {
		sym = s
	}
	if i := strings.LastIndex(sym, "+0x"); i > 0 {
		sym = sym[:i]
	}
	return strings.TrimSpace(sym), dso
}

// isTime reports whether tok is perf's "seconds.fraction:" timestamp.
func isTime(tok string) bool {
	sec, frac, ok := strings.Cut(strings.TrimSuffix(tok, ":"), ".")
	return ok && len(tok) > len(sec)+len(frac)+1 && isDigits(sec) && isDigits(frac)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// parseHeader parses a sample line: "[comm] [pid[/tid]] [cpu] [time:]
// [period] [event:] [ip [sym] [(dso)]]". Only fields that identify the
// process, the weight and, without a call chain, the IP are kept. chain
// tells whether call-chain frames follow (then a lone number is the pid,
// not the IP).
func parseHeader(line string, chain bool) (*Sample, error) {
	toks := strings.Fields(line)
	smp := &Sample{PID: -1}
	rest := toks
	if i := indexFunc(toks, isTime); i >= 1 {
		j := i - 1
		if strings.HasPrefix(toks[j], "[") && j > 0 { // the cpu field
			j--
		}
		smp.PID = parsePID(toks[j])
		smp.TimeNS = parseTime(toks[i])
		rest = toks[i+1:]
	} else if len(toks) > 0 && isPID(toks[0]) && (chain || len(toks) > 1) {
		smp.PID = parsePID(toks[0])
		rest = toks[1:]
	}
	rest = parseWeight(smp, rest)
	if len(rest) > 0 {
		f, err := parseFrame(strings.Join(rest, " "))
		if err != nil {
			return nil, err
		}
		f.Absolute = true
		smp.Frames = append(smp.Frames, f)
	}
	return smp, nil
}

// parseWeight takes "[period] event:" off the front of toks.
func parseWeight(smp *Sample, toks []string) []string {
	i := indexFunc(toks, func(t string) bool { return strings.HasSuffix(t, ":") })
	if i < 0 {
		return toks
	}
	smp.Event = strings.TrimSuffix(toks[i], ":")
	if i >= 1 {
		if p, err := strconv.ParseUint(toks[i-1], 10, 64); err == nil {
			smp.Period = p
		}
	}
	return toks[i+1:]
}

func indexFunc(toks []string, f func(string) bool) int {
	for i, t := range toks {
		if f(t) {
			return i
		}
	}
	return -1
}

func isPID(t string) bool {
	p, _, _ := strings.Cut(t, "/")
	_, err := strconv.Atoi(p)
	return err == nil
}

func parsePID(t string) int {
	p, _, _ := strings.Cut(t, "/")
	n, err := strconv.Atoi(p)
	if err != nil {
		return -1
	}
	return n
}

// parseTime reads perf's "seconds.fraction:" timestamp as nanoseconds.
func parseTime(tok string) uint64 {
	secText, fracText, _ := strings.Cut(strings.TrimSuffix(tok, ":"), ".")
	sec, err1 := strconv.ParseUint(secText, 10, 64)
	frac, err2 := strconv.ParseUint(fracText, 10, 64)
	if err1 != nil || err2 != nil || len(fracText) > 9 {
		return 0
	}
	for n := len(fracText); n < 9; n++ {
		frac *= 10
	}
	return sec*1e9 + frac
}
