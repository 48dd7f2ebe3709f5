package symbolize

import (
	"encoding/binary"

	"github.com/profgen/profgen/internal/leb128"
)

// Running a unit's line number program (DWARF 2 to 5, section 6.2)
// without debug/dwarf: its LineReader fills a whole LineEntry (file,
// column, flags) for each row, and the loader keeps the address, the
// line, the discriminator and the end of a sequence. lineProgram computes
// those as LineReader does, for programs of one operation per
// instruction (all but VLIW targets), in little-endian DWARF. What it
// would read otherwise than LineReader, or that LineReader refuses (a
// truncated or malformed program, DW_LNE_define_file), makes it give up:
// the caller then reads the program with LineReader.

// Line number program opcodes (DWARF 5 section 7.22).
const (
	lnsCopy             = 1
	lnsAdvancePC        = 2
	lnsAdvanceLine      = 3
	lnsSetFile          = 4
	lnsSetColumn        = 5
	lnsNegateStmt       = 6
	lnsSetBasicBlock    = 7
	lnsConstAddPC       = 8
	lnsFixedAdvancePC   = 9
	lnsSetPrologueEnd   = 10
	lnsSetEpilogueBegin = 11
	lnsSetISA           = 12

	lneEndSequence      = 1
	lneSetAddress       = 2
	lneDefineFile       = 3
	lneSetDiscriminator = 4
)

// lineProgram is the program of one line table and the header fields
// that running it needs.
type lineProgram struct {
	b             []byte // the program, to the end of its table
	pos           int
	addrSize      int
	minInst       int
	lineBase      int
	lineRange     int
	opcodeBase    int
	opcodeLengths []byte // of opcodes 1 to opcodeBase-1
	bad           bool   // sticky: give up
}

// newLineProgram reads the header of the line table at off of
// .debug_line; unitAddrSize is the address size of its unit (which DWARF
// 5 tables repeat). False when the table is one lineProgram does not run.
func newLineProgram(sec []byte, off uint64, unitAddrSize int) (*lineProgram, bool) {
	h, hd, ok := readLineHeader(sec, off, unitAddrSize)
	if !ok || hd.version < 2 || hd.version > 5 || hd.maxOps != 1 || h.lineRange == 0 || hd.programStart > uint64(len(h.b)) {
		return nil, false
	}
	h.pos = int(hd.programStart)
	return h, true
}

// lineHeader is what a line table's header says besides the fields
// lineProgram keeps.
type lineHeader struct {
	version, offSize int
	maxOps           int
	programStart     uint64 // the offset of the program in the table
}

// readLineHeader reads the header of the line table at off of sec up to
// its standard_opcode_lengths (a DWARF 5 header's entry lists follow): the
// lineProgram holds the whole table, positioned after them. ok is false
// when the header does not fit in the table; version is 0 when the
// table's length does not fit in sec.
func readLineHeader(sec []byte, off uint64, unitAddrSize int) (h *lineProgram, hd lineHeader, ok bool) {
	if off >= uint64(len(sec)) {
		return nil, hd, false
	}
	h = &lineProgram{b: sec[off:]}
	length, offSize := uint64(h.u32()), 4
	if length == 0xffffffff {
		length, offSize = h.u64(), 8
	}
	if h.bad || length > uint64(len(h.b)-h.pos) {
		return nil, hd, false
	}
	h.b = h.b[:h.pos+int(length)]
	hd.version, hd.offSize = int(h.u16()), offSize
	h.addrSize = unitAddrSize
	if hd.version >= 5 {
		h.addrSize = int(h.u8())
		h.u8() // segment selector size
	}
	headerLength := h.u32AsOffset(offSize)
	hd.programStart = uint64(h.pos) + headerLength
	h.minInst = int(h.u8())
	hd.maxOps = 1
	if hd.version >= 4 {
		hd.maxOps = int(h.u8())
	}
	h.u8() // default_is_stmt
	h.lineBase = int(int8(h.u8()))
	h.lineRange = int(h.u8())
	h.opcodeBase = int(h.u8())
	h.opcodeLengths = h.bytes(max(h.opcodeBase-1, 0))
	return h, hd, !h.bad
}

// u32AsOffset reads an offset of offSize bytes.
func (p *lineProgram) u32AsOffset(offSize int) uint64 {
	if offSize == 8 {
		return p.u64()
	}
	return uint64(p.u32())
}

// run appends the rows of the program to l (loader.addLineRow); false
// when it gave up, the rows it appended left to the caller to drop.
func (p *lineProgram) run(l *loader) bool {
	seqStart := len(l.lines)
	var s lineState
	s.reset()
	for p.pos < len(p.b) && !p.bad {
		emit, end := p.step(&s)
		if p.bad {
			break
		}
		if !emit {
			continue
		}
		l.addLineRow(lineRow{addr: s.addr, line: uint32(s.line), discriminator: uint32(s.discriminator), column: l.column(s.column), endSequence: end}, seqStart)
		if end {
			seqStart = len(l.lines)
			s.reset()
		} else {
			s.discriminator = 0
		}
	}
	return !p.bad
}

// lineState is the state machine's registers that rows are made of.
type lineState struct {
	addr          uint64
	line          int
	discriminator int
	column        int
}

func (s *lineState) reset() { *s = lineState{line: 1} }

// step runs one opcode; emit tells that it makes a row, end that the row
// ends a sequence.
func (p *lineProgram) step(s *lineState) (emit, end bool) {
	op := int(p.u8())
	if op >= p.opcodeBase {
		adjusted := op - p.opcodeBase
		s.addr += uint64(p.minInst * (adjusted / p.lineRange))
		s.line += p.lineBase + adjusted%p.lineRange
		return true, false
	}
	switch op {
	case 0:
		return p.extended(s)
	case lnsCopy:
		return true, false
	case lnsAdvancePC:
		s.addr += uint64(p.minInst * int(p.uleb()))
	case lnsAdvanceLine:
		s.line += int(p.sleb())
	case lnsConstAddPC:
		s.addr += uint64(p.minInst * ((255 - p.opcodeBase) / p.lineRange))
	case lnsFixedAdvancePC:
		s.addr += uint64(p.u16())
	case lnsNegateStmt, lnsSetBasicBlock, lnsSetPrologueEnd, lnsSetEpilogueBegin:
	case lnsSetColumn:
		s.column = int(p.uleb())
	case lnsSetFile, lnsSetISA:
		p.uleb()
	default:
		for range p.opcodeLengths[op-1] {
			p.uleb()
		}
	}
	return false, false
}

// extended runs an extended opcode, whose length the reader's position
// must end at.
func (p *lineProgram) extended(s *lineState) (emit, end bool) {
	length := p.uleb()
	start := p.pos
	switch p.u8() {
	case lneEndSequence:
		emit, end = true, true
	case lneSetAddress:
		s.addr = p.address()
	case lneDefineFile:
		p.bad = true
	case lneSetDiscriminator:
		s.discriminator = int(p.uleb())
	}
	if length > uint64(len(p.b)-start) || uint64(p.pos-start) > length {
		p.bad = true
		return false, false
	}
	p.pos = start + int(length)
	return emit, end
}

func (p *lineProgram) address() uint64 {
	switch p.addrSize {
	case 1:
		return uint64(p.u8())
	case 2:
		return uint64(p.u16())
	case 4:
		return uint64(p.u32())
	case 8:
		return p.u64()
	}
	p.bad = true
	return 0
}

// The readers of the program's numbers: past its end they read 0 and
// set bad.

func (p *lineProgram) bytes(n int) []byte {
	if p.bad || n > len(p.b)-p.pos {
		p.bad = true
		return make([]byte, n)
	}
	b := p.b[p.pos : p.pos+n]
	p.pos += n
	return b
}

func (p *lineProgram) u8() uint8 {
	if p.pos >= len(p.b) {
		p.bad = true
		return 0
	}
	p.pos++
	return p.b[p.pos-1]
}

func (p *lineProgram) u16() uint16 { return binary.LittleEndian.Uint16(p.bytes(2)) }
func (p *lineProgram) u32() uint32 { return binary.LittleEndian.Uint32(p.bytes(4)) }
func (p *lineProgram) u64() uint64 { return binary.LittleEndian.Uint64(p.bytes(8)) }

// uleb and sleb read a LEB128 number as debug/dwarf does: bits beyond
// 64 are lost; one that does not end within the program is bad.
func (p *lineProgram) uleb() uint64 { return lineLEB128(p, leb128.Uint) }
func (p *lineProgram) sleb() int64  { return lineLEB128(p, leb128.Int) }

func lineLEB128[T uint64 | int64](p *lineProgram, decode func([]byte) (T, int)) T {
	v, n := decode(p.b[p.pos:])
	if n == 0 {
		p.bad = true
		return 0
	}
	p.pos += n
	return v
}
