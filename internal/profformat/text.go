package profformat

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// LooksLikeText accepts UTF-8 without control characters other than tab,
// CR and LF; the last rune may be cut short.
func LooksLikeText(head []byte) bool {
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 {
			return len(head) < utf8.UTFMax && !utf8.FullRune(head)
		}
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
			return false
		}
		head = head[n:]
	}
	return true
}

// IsSampleText tells whether head, the start of a file, begins like an
// LLVM text sample profile: its first line that is neither blank nor a
// comment is a "name:NUM:NUM" function header.
func IsSampleText(head []byte) bool {
	for len(head) > 0 {
		line, rest, complete := bytes.Cut(head, []byte("\n"))
		head = rest
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) == 0 || trimmed[0] == '#' {
			continue
		}
		if line[0] == ' ' {
			return false // a sample line before any header
		}
		if !complete {
			return LooksLikeText(line) // a header cut short: cannot check more
		}
		return isSampleHeader(string(bytes.TrimRight(line, "\r")))
	}
	return false
}

// isSampleHeader reports whether line is "name:TOTAL:HEAD" (the name may
// itself hold colons, as context names "[a:1 @ b]" do).
func isSampleHeader(line string) bool {
	i := strings.LastIndexByte(line, ':')
	if i <= 0 {
		return false
	}
	j := strings.LastIndexByte(line[:i], ':')
	if j < 0 {
		return false
	}
	_, err1 := strconv.ParseUint(line[j+1:i], 10, 64)
	_, err2 := strconv.ParseUint(line[i+1:], 10, 64)
	return err1 == nil && err2 == nil
}

// IsInstrText tells whether head begins like an instrumentation text
// profile (.proftext): printable text whose first line is a header (":ir",
// ":fe", ":csir", ...) or a comment, or a function name followed by its
// CFG hash (decimal, or hex, binary, octal by prefix).
func IsInstrText(head []byte) bool {
	if !LooksLikeText(head) {
		return false
	}
	lines := strings.Split(strings.TrimLeft(string(head), " \t\r\n"), "\n")
	if lines[0] == "" {
		return false
	}
	if lines[0][0] == ':' || lines[0][0] == '#' {
		return true
	}
	for i, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			continue
		}
		_, err := strconv.ParseUint(l, 0, 64)  // the hash: LLVM senses 0x, 0b, 0 prefixes
		return err == nil || i == len(lines)-2 // the last line may be cut short
	}
	return len(lines) == 1
}

// AddressHeader starts an address profile of call stacks (the version
// follows: "# profgen address profile v1").
const AddressHeader = "# profgen address profile v"

// IsUnsymbolizedLBR tells whether head begins like llvm-profgen's
// unsymbolized profile without contexts: a number of ranges alone on the
// first line, then a range "<hex>-<hex>:<count>" or, with none, a number
// of branches.
func IsUnsymbolizedLBR(head []byte) bool {
	lines := bytes.SplitN(head, []byte("\n"), 3)
	if len(lines) < 3 || !isDecimal(lines[0]) {
		return false
	}
	if isDecimal(lines[1]) {
		return true
	}
	return isCounterLine(lines[1], "-")
}

// IsUnsymbolizedCS tells whether head begins like llvm-profgen's
// unsymbolized profile with contexts: a context "[...]" alone on the
// first line, then its number of ranges indented by two spaces.
func IsUnsymbolizedCS(head []byte) bool {
	lines := bytes.SplitN(head, []byte("\n"), 3)
	if len(lines) < 3 || len(lines[0]) < 2 || lines[0][0] != '[' || lines[0][len(lines[0])-1] != ']' {
		return false
	}
	count, ok := bytes.CutPrefix(lines[1], []byte("  "))
	return ok && isDecimal(count)
}

func isDecimal(b []byte) bool {
	_, err := strconv.ParseUint(string(b), 10, 64)
	return err == nil
}

// isCounterLine tells whether l is "<hex><sep><hex>:<count>".
func isCounterLine(l []byte, sep string) bool {
	from, rest, ok1 := bytes.Cut(l, []byte(sep))
	to, count, ok2 := bytes.Cut(rest, []byte(":"))
	_, e1 := strconv.ParseUint(string(from), 16, 64)
	_, e2 := strconv.ParseUint(string(to), 16, 64)
	return ok1 && ok2 && e1 == nil && e2 == nil && isDecimal(count)
}
