package perfscript

import (
	"bytes"

	"github.com/profgen/profgen/internal/hexnum"
	"github.com/profgen/profgen/internal/record"
)

// Hand-written number and token helpers: the hot path must not allocate.

// parseHex parses b (no 0x prefix, at most 16 digits) as hexadecimal.
func parseHex(b []byte) (uint64, bool) {
	if len(b) > 16 {
		return 0, false
	}
	return hexnum.Parse(b)
}

// parseHex0x parses "0x..." as hexadecimal.
func parseHex0x(b []byte) (uint64, bool) {
	if len(b) < 3 || b[0] != '0' || (b[1] != 'x' && b[1] != 'X') {
		return 0, false
	}
	return parseHex(b[2:])
}

// parseDec parses b as an unsigned decimal number.
func parseDec(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// parseInt32 parses an optionally negative decimal number.
func parseInt32(b []byte) (int32, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	v, ok := parseDec(b)
	if !ok || v > 1<<31 {
		return 0, false
	}
	if neg {
		return -int32(v), true
	}
	if v == 1<<31 {
		return 0, false
	}
	return int32(v), true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// nextField returns the first space-separated field of b and what follows it.
func nextField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isSpace(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isDecimal(b []byte) bool {
	_, ok := parseDec(b)
	return ok
}

// isEntry reports whether tok looks like a brstack entry "0xA/0xB[/...]".
func isEntry(tok []byte) bool {
	return len(tok) > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X') && indexByte(tok, '/') > 0
}

// HoldsBranchStack reports whether text (a line, or many) holds a brstack
// entry: a field that isEntry takes, "0xA/0xB…" as perf prints it, with
// -F dso "0xA(dso)/0xB(dso)…", a bad entry "0xA/…" that the parser marks
// (record.Sample.BadBranch), upper-case "0X" too. It looks at the fields
// that hold a '/', each once, and skips the rest at the speed of
// bytes.IndexByte: paths in DSOs, pid/tid, and "/0x" inside a path are
// not entries.
func HoldsBranchStack(text []byte) bool {
	for {
		slash := bytes.IndexByte(text, '/')
		if slash < 0 {
			return false
		}
		start := bytes.LastIndexAny(text[:slash], " \t\n") + 1
		if isEntry(text[start : slash+1]) {
			return true
		}
		end := bytes.IndexAny(text[slash:], " \t\n")
		if end < 0 {
			return false
		}
		text = text[slash+end:]
	}
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// parseEntry parses "0xFROM/0xTO[/flags...]".
func parseEntry(tok []byte) (record.Branch, bool) {
	i := indexByte(tok, '/')
	if i < 0 {
		return record.Branch{}, false
	}
	from, ok := parseHex0x(tok[:i])
	if !ok {
		return record.Branch{}, false
	}
	rest := tok[i+1:]
	if j := indexByte(rest, '/'); j >= 0 {
		rest = rest[:j]
	}
	to, ok := parseHex0x(rest)
	if !ok {
		return record.Branch{}, false
	}
	return record.Branch{From: from, To: to}, true
}

// parsePIDTID parses "pid/tid" or "pid".
func parsePIDTID(b []byte) (pid, tid int32, ok bool) {
	i := indexByte(b, '/')
	if i < 0 {
		pid, ok = parseInt32(b)
		return pid, pid, ok
	}
	pid, ok1 := parseInt32(b[:i])
	tid, ok2 := parseInt32(b[i+1:])
	return pid, tid, ok1 && ok2
}

// isHexDigits reports whether b is lower-case hex digits, as perf prints
// build ids.
func isHexDigits(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return len(b) > 0
}
