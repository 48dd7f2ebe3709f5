package testutil

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
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

var (
	disasmSection = regexp.MustCompile(`^Disassembly of section \S+ \[0x([0-9a-f]+), 0x([0-9a-f]+)\]:`)
	disasmInst    = regexp.MustCompile(`^ *([0-9a-f]+):(.*)$`)
)

// ParseDisassembly reads a --show-disassembly-only listing line by line.
func ParseDisassembly(r io.Reader) ([]DisasmLine, error) {
	var out []DisasmLine
	var sec [2]uint64
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := DisasmLine{Line: sc.Text()}
		if m := disasmSection.FindStringSubmatch(l.Line); m != nil {
			sec[0], _ = strconv.ParseUint(m[1], 16, 64)
			sec[1], _ = strconv.ParseUint(m[2], 16, 64)
		} else if m := disasmInst.FindStringSubmatch(l.Line); m != nil {
			if a, err := strconv.ParseUint(m[1], 16, 64); err == nil {
				l.Inst, l.Addr, l.Rest = true, a, m[2]
			}
		}
		l.Section = sec
		out = append(out, l)
	}
	return out, sc.Err()
}
