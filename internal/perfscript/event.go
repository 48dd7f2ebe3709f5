package perfscript

import (
	"bytes"

	"github.com/profgen/profgen/internal/record"
)

// parseEvent parses a PERF_RECORD_* line into s.rec. It returns false for
// kinds that are skipped (counted in record.Stats) and on error (s.err set).
func (s *Scanner) parseEvent(line []byte) bool {
	i := bytes.Index(line[:min(len(line), 192)], []byte("PERF_RECORD_"))
	s.notePIDColumn(line[:i])
	body := line[i+len("PERF_RECORD_"):]
	s.rec.Line = s.lineNo
	switch {
	case bytes.HasPrefix(body, []byte("MMAP2 ")):
		return s.parseMmap(body[len("MMAP2 "):], true)
	case bytes.HasPrefix(body, []byte("MMAP ")):
		return s.parseMmap(body[len("MMAP "):], false)
	case bytes.HasPrefix(body, []byte("FORK(")):
		return s.parseTask(body[len("FORK"):], record.KindFork)
	case bytes.HasPrefix(body, []byte("EXIT(")):
		return s.parseTask(body[len("EXIT"):], record.KindExit)
	case bytes.HasPrefix(body, []byte("COMM")):
		return s.parseComm(body[len("COMM"):])
	}
	s.stats.SkippedRecords++
	return false
}

// notePIDColumn remembers that lines carry a leading pid field (-F pid),
// which decides how `N 0xA/0xB…` sample lines are read.
func (s *Scanner) notePIDColumn(prefix []byte) {
	tok, rest := nextField(prefix)
	if len(tok) > 0 && isDecimal(tok) && len(trimSpace(rest)) == 0 {
		s.pidColumn = true
	}
}

// parseMmap parses `pid/tid: [0xADDR(0xLEN) @ PGOFF ...]: prot path`.
func (s *Scanner) parseMmap(b []byte, v2 bool) bool {
	r := &s.rec
	r.Kind = record.KindMmap
	r.Mmap.V2 = v2
	colon := indexByte(b, ':')
	if colon < 0 {
		return s.errorf("malformed PERF_RECORD_MMAP: no pid/tid")
	}
	pid, tid, ok := parsePIDTID(trimSpace(b[:colon]))
	if !ok {
		return s.errorf("malformed PERF_RECORD_MMAP: bad pid/tid %s", quote(b[:colon]))
	}
	r.HasPID, r.PID, r.TID = true, pid, tid
	b = trimSpace(b[colon+1:])
	if len(b) == 0 || b[0] != '[' {
		return s.errorf("malformed PERF_RECORD_MMAP: no [")
	}
	open, close := indexByte(b, '('), indexByte(b, ')')
	if open < 0 || close < open {
		return s.errorf("malformed PERF_RECORD_MMAP: no (length)")
	}
	var okA, okL bool
	r.Mmap.Addr, okA = parseHex0x(b[1:open])
	r.Mmap.Len, okL = parseHex0x(b[open+1 : close])
	if !okA || !okL {
		return s.errorf("malformed PERF_RECORD_MMAP: bad address or length")
	}
	return s.parseMmapTail(b[close+1:])
}

// parseMmapTail parses ` @ PGOFF ...]: prot path`.
func (s *Scanner) parseMmapTail(b []byte) bool {
	r := &s.rec
	b = trimSpace(b)
	if len(b) == 0 || b[0] != '@' {
		return s.errorf("malformed PERF_RECORD_MMAP: no @ offset")
	}
	end := bytes.Index(b, []byte("]: "))
	if end < 0 {
		if !bytes.HasSuffix(b, []byte("]:")) {
			return s.errorf("malformed PERF_RECORD_MMAP: no ]:")
		}
		end = len(b) - 2
	}
	off, rest := nextField(b[1:end])
	off = bytes.TrimSuffix(off, []byte("]"))
	r.Mmap.BuildID = s.mmapBuildID(rest)
	var ok bool
	if r.Mmap.PgOff, ok = parseHex0x(off); !ok {
		if len(off) != 1 || off[0] != '0' {
			return s.errorf("malformed PERF_RECORD_MMAP: bad page offset %s", quote(off))
		}
	}
	tail := b[min(end+3, len(b)):]
	prot, path := nextField(tail)
	if r.Mmap.V2 || len(prot) <= 1 {
		r.Mmap.Prot = s.intern(prot)
		path = trimSpace(path)
	} else {
		path = trimSpace(tail) // MMAP without a protection field
	}
	r.Mmap.Path = s.intern(path)
	return true
}

// mmapBuildID returns the build id of `<hex>]` after an MMAP2's page
// offset (perf prints it in place of `maj:min inode gen`), or "".
func (s *Scanner) mmapBuildID(b []byte) string {
	b = trimSpace(b)
	if len(b) < 3 || b[0] != '<' {
		return ""
	}
	end := indexByte(b, '>')
	if end < 2 || !isHexDigits(b[1:end]) {
		return ""
	}
	return s.intern(b[1:end])
}

// parseTask parses `(pid:tid):(ppid:ptid)` of FORK and EXIT.
func (s *Scanner) parseTask(b []byte, kind record.Kind) bool {
	r := &s.rec
	r.Kind = kind
	c, rest, ok := parseParenPair(b)
	if !ok || len(rest) == 0 || rest[0] != ':' {
		return s.errorf("malformed PERF_RECORD_%s", kindName(kind))
	}
	p, _, ok := parseParenPair(rest[1:])
	if !ok {
		return s.errorf("malformed PERF_RECORD_%s", kindName(kind))
	}
	r.HasPID, r.PID, r.TID = true, c[0], c[1]
	r.ParentPID, r.ParentTID = p[0], p[1]
	return true
}

func kindName(k record.Kind) string {
	if k == record.KindFork {
		return "FORK"
	}
	return "EXIT"
}

// parseParenPair parses "(a:b)" and returns what follows.
func parseParenPair(b []byte) ([2]int32, []byte, bool) {
	var v [2]int32
	if len(b) == 0 || b[0] != '(' {
		return v, nil, false
	}
	end := indexByte(b, ')')
	colon := indexByte(b, ':')
	if end < 0 || colon < 0 || colon > end {
		return v, nil, false
	}
	a, ok1 := parseInt32(b[1:colon])
	c, ok2 := parseInt32(b[colon+1 : end])
	v[0], v[1] = a, c
	return v, b[end+1:], ok1 && ok2
}

// parseComm parses ` exec: name:pid/tid` or `: name:pid/tid`.
func (s *Scanner) parseComm(b []byte) bool {
	r := &s.rec
	r.Kind = record.KindComm
	b = trimSpace(b)
	if bytes.HasPrefix(b, []byte("exec:")) {
		r.Exec = true
		b = b[len("exec:"):]
	} else if len(b) > 0 && b[0] == ':' {
		b = b[1:]
	} else {
		return s.errorf("malformed PERF_RECORD_COMM")
	}
	b = trimSpace(b)
	colon := bytes.LastIndexByte(b, ':')
	if colon < 0 {
		return s.errorf("malformed PERF_RECORD_COMM: no pid/tid")
	}
	pid, tid, ok := parsePIDTID(b[colon+1:])
	if !ok {
		return s.errorf("malformed PERF_RECORD_COMM: bad pid/tid %s", quote(b[colon+1:]))
	}
	r.HasPID, r.PID, r.TID = true, pid, tid
	r.Comm = s.intern(b[:colon])
	return true
}
