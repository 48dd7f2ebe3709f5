package perfscript

import "bytes"

type lineKind uint8

const (
	lineUnknown lineKind = iota
	lineSample           // a complete one-line sample
	lineHeader           // a sample header; call-chain frames follow
)

// parseSampleLine parses a sample line into s.rec.Sample. Layouts:
//
//	comm pid[/tid] [cpu] time: [period] event: [ip [sym] [(dso)]] [brstack]
//	[pid[/tid]] [ip] [brstack]
func (s *Scanner) parseSampleLine(line []byte) lineKind {
	smp := &s.rec.Sample
	rest, header := s.parseDefaultHeader(line)
	if !header {
		var pid, event bool
		rest, pid = s.parseLeadingPID(line)
		rest, event = s.parsePeriodAndEvent(rest)
		header = pid || event
	}
	tok, after := nextField(rest)
	switch {
	case len(tok) == 0:
		if header {
			return lineHeader
		}
		return lineUnknown
	case isEntry(tok):
		s.parseBranches(rest)
		return lineSample
	}
	ip, ok := parseHex(tok)
	if !ok {
		return lineUnknown
	}
	smp.HasIP, smp.IP = true, ip
	s.parseBranches(s.parseIPSymbol(after))
	return lineSample
}

// parseIPSymbol takes the symbol and DSO perf prints after the IP with
// -F sym,dso (`spin+0x4e (/tmp/forky)`) off the front of b, up to the first
// brstack entry.
func (s *Scanner) parseIPSymbol(b []byte) []byte {
	rest := b
	for {
		tok, after := nextField(rest)
		if len(tok) == 0 || isEntry(tok) {
			break
		}
		rest = after
	}
	text := trimSpace(b[:len(b)-len(rest)])
	if len(text) == 0 {
		return rest
	}
	smp := &s.rec.Sample
	if n := len(text); text[n-1] == ')' {
		if i := bytes.LastIndexByte(text, '('); i >= 0 && (i == 0 || text[i-1] == ' ') {
			smp.IPDSO, text = s.intern(text[i+1:n-1]), trimSpace(text[:i])
		}
	}
	smp.IPSymbol = s.intern(text)
	return rest
}

// parseLeadingPID recognizes a leading pid[/tid] field (-F pid,... or
// -F pid,tid,...) and returns what follows it.
func (s *Scanner) parseLeadingPID(line []byte) ([]byte, bool) {
	tok, after := nextField(line)
	if isEntry(tok) {
		return line, false
	}
	if indexByte(tok, '/') > 0 {
		return s.setSamplePID(tok, after)
	}
	if !isDecimal(tok) {
		return line, false
	}
	next, _ := nextField(after)
	switch {
	case len(next) == 0:
		// A lone decimal: a pid (perf prints a space after it) or an IP.
		if len(after) > 0 {
			return s.setSamplePID(tok, after)
		}
		return line, false
	case isEntry(next):
		if s.pidColumn {
			return s.setSamplePID(tok, after)
		}
		return line, false // llvm-profgen's `ip brstack`
	}
	if _, ok := parseHex(next); ok || isEventName(next) {
		return s.setSamplePID(tok, after)
	}
	return line, false
}

func (s *Scanner) setSamplePID(tok, after []byte) ([]byte, bool) {
	pid, tid, ok := parsePIDTID(tok)
	if !ok {
		return nil, false
	}
	s.rec.HasPID, s.rec.PID, s.rec.TID = true, pid, tid
	return after, true
}

// parseDefaultHeader recognizes perf's default leading fields
// `comm pid[/tid] [cpu] time: [period] event:` and returns what follows.
func (s *Scanner) parseDefaultHeader(line []byte) ([]byte, bool) {
	var toks [12][]byte
	b := line
	k := -1
	n := 0
	for n < len(toks) {
		tok, after := nextField(b)
		if len(tok) == 0 || isEntry(tok) {
			return line, false
		}
		toks[n] = tok
		n++
		b = after
		if isTime(tok) {
			k = n - 1
			break
		}
	}
	if k < 1 {
		return line, false
	}
	i := k - 1
	if isCPU(toks[i]) {
		i--
	}
	if i < 0 {
		return line, false
	}
	pid, tid, ok := parsePIDTID(toks[i])
	if !ok {
		return line, false
	}
	s.rec.HasPID, s.rec.PID, s.rec.TID = true, pid, tid
	s.rec.Sample.TimeNS = parseTime(toks[k])
	rest, _ := s.parsePeriodAndEvent(b)
	return rest, true
}

// parsePeriodAndEvent takes `[period] event:` off the front of b (after
// the time field, or first on the line with -F event,ip,...: several
// events mixed in one file are told apart by it).
func (s *Scanner) parsePeriodAndEvent(b []byte) ([]byte, bool) {
	smp := &s.rec.Sample
	t1, a1 := nextField(b)
	if isEventName(t1) {
		smp.Event = s.intern(t1[:len(t1)-1])
		return a1, true
	}
	if period, ok := parseDec(t1); ok {
		t2, a2 := nextField(a1)
		if isEventName(t2) {
			smp.Period, smp.Event = period, s.intern(t2[:len(t2)-1])
			return a2, true
		}
	}
	return b, false
}

// isEventName reports whether tok is an event field: a name ending in a
// colon (`cycles:u:`, `br_inst_retired.near_taken:upp:`, `cpu-clock:`).
func isEventName(tok []byte) bool {
	return endsWithColon(tok) && !isTime(tok) && (tok[0] < '0' || tok[0] > '9')
}

// parseTime reads perf's "seconds.fraction:" as nanoseconds (0 when the
// fraction has more than 9 digits).
func parseTime(tok []byte) uint64 {
	dot := indexByte(tok, '.')
	sec, ok1 := parseDec(tok[:dot])
	fracText := tok[dot+1 : len(tok)-1]
	frac, ok2 := parseDec(fracText)
	if !ok1 || !ok2 || len(fracText) > 9 {
		return 0
	}
	for n := len(fracText); n < 9; n++ {
		frac *= 10
	}
	return sec*1e9 + frac
}

func endsWithColon(b []byte) bool { return len(b) > 1 && b[len(b)-1] == ':' }

// isTime reports whether tok is perf's "seconds.fraction:".
func isTime(tok []byte) bool {
	if !endsWithColon(tok) {
		return false
	}
	dot := false
	for _, c := range tok[:len(tok)-1] {
		switch {
		case c == '.' && !dot:
			dot = true
		case c < '0' || c > '9':
			return false
		}
	}
	return dot
}

// isCPU reports whether tok is "[NNN]".
func isCPU(tok []byte) bool {
	return len(tok) > 2 && tok[0] == '[' && tok[len(tok)-1] == ']' && isDecimal(tok[1:len(tok)-1])
}
