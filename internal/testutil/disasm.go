package testutil

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// DisasmLine is one line of llvm-profgen --show-disassembly-only output
// (profgen's too): a header or blank line, a probe line, or an
// instruction line "%8x:" followed by the instruction's text (and, with
// --show-source-locations, its source location).
type DisasmLine struct {
	Line string // the whole line, without the newline
	// Inst is set on instruction lines: Addr is the address, Rest what
	// follows "addr:".
	Inst bool
	Addr uint64
	Rest string
	// Section is the [start, end) of the section the line is under, from
	// the last "Disassembly of section" header.
	Section [2]uint64
}

// PastSection reports whether an instruction line lies past the end of
// its section (llvm-profgen decodes beyond it when a symbol of the
// section lies beyond its end).
func (l DisasmLine) PastSection() bool {
	return l.Inst && (l.Addr < l.Section[0] || l.Addr >= l.Section[1])
}

// DisasmScanner reads a --show-disassembly-only listing line by line
// (listings of large binaries run to millions of lines).
type DisasmScanner struct {
	sc   *bufio.Scanner
	sec  [2]uint64
	line DisasmLine
}

// NewDisasmScanner reads the listing r.
func NewDisasmScanner(r io.Reader) *DisasmScanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	return &DisasmScanner{sc: sc}
}

// Next reads the next line; false at the end or on an error (Err).
func (s *DisasmScanner) Next() bool {
	if !s.sc.Scan() {
		return false
	}
	l := DisasmLine{Line: s.sc.Text()}
	if rest, ok := strings.CutPrefix(l.Line, "Disassembly of section "); ok {
		s.sec = sectionRange(rest)
	} else if addr, rest, ok := instLine(l.Line); ok {
		l.Inst, l.Addr, l.Rest = true, addr, rest
	}
	l.Section = s.sec
	s.line = l
	return true
}

// Line is the line Next read.
func (s *DisasmScanner) Line() DisasmLine { return s.line }

// Err is the first read error.
func (s *DisasmScanner) Err() error { return s.sc.Err() }

// sectionRange reads "NAME [0xSTART, 0xEND]:".
func sectionRange(s string) [2]uint64 {
	_, r, _ := strings.Cut(s, " [0x")
	start, r, _ := strings.Cut(r, ", 0x")
	end, _, _ := strings.Cut(r, "]")
	a, _ := strconv.ParseUint(start, 16, 64)
	b, _ := strconv.ParseUint(end, 16, 64)
	return [2]uint64{a, b}
}

// instLine splits "%8x:rest".
func instLine(line string) (uint64, string, bool) {
	head, rest, ok := strings.Cut(line, ":")
	head = strings.TrimLeft(head, " ")
	if !ok || head == "" {
		return 0, "", false
	}
	for i := 0; i < len(head); i++ {
		if c := head[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return 0, "", false
		}
	}
	addr, err := strconv.ParseUint(head, 16, 64)
	return addr, rest, err == nil
}

// ParseDisassembly reads a whole --show-disassembly-only listing.
func ParseDisassembly(r io.Reader) ([]DisasmLine, error) {
	var out []DisasmLine
	s := NewDisasmScanner(r)
	for s.Next() {
		out = append(out, s.Line())
	}
	return out, s.Err()
}
