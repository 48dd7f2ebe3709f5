package symbolize

import "github.com/profgen/profgen/internal/dwarfread"

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
	dwarfread.Cursor // over the table, at the program
	addrSize         int
	minInst          int
	lineBase         int
	lineRange        int
	opcodeBase       int
	opcodeLengths    []byte // of opcodes 1 to opcodeBase-1
	bad              bool   // sticky: give up
}

// newLineProgram reads the header of the line table at off of
// .debug_line; unitAddrSize is the address size of its unit (which DWARF
// 5 tables repeat). False when the table is one lineProgram does not run.
func newLineProgram(sec []byte, off uint64, unitAddrSize int) (*lineProgram, bool) {
	h, ok := dwarfread.ReadLineHeader(sec, off, unitAddrSize)
	if !ok || h.Version < 2 || h.Version > 5 || h.MaxOps != 1 || h.LineRange == 0 || h.ProgramStart > uint64(len(h.Table)) {
		return nil, false
	}
	return &lineProgram{
		Cursor:   dwarfread.Cursor{B: h.Table, Pos: int(h.ProgramStart)},
		addrSize: h.AddrSize, minInst: h.MinInst,
		lineBase: h.LineBase, lineRange: h.LineRange,
		opcodeBase: h.OpcodeBase, opcodeLengths: h.OpcodeLengths,
	}, true
}

// run appends the rows of the program to l (loader.addLineRow); false
// when it gave up, the rows it appended left to the caller to drop.
func (p *lineProgram) run(l *loader) bool {
	seqStart := len(l.lines)
	var s lineState
	s.reset()
	for p.Pos < len(p.B) && !p.Bad {
		emit, end := p.step(&s)
		if p.Bad {
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
	return !p.Bad
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
	op := int(p.U8())
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
		s.addr += uint64(p.minInst * int(p.ULEB()))
	case lnsAdvanceLine:
		s.line += int(p.SLEB())
	case lnsConstAddPC:
		s.addr += uint64(p.minInst * ((255 - p.opcodeBase) / p.lineRange))
	case lnsFixedAdvancePC:
		s.addr += uint64(p.U16())
	case lnsNegateStmt, lnsSetBasicBlock, lnsSetPrologueEnd, lnsSetEpilogueBegin:
	case lnsSetColumn:
		s.column = int(p.ULEB())
	case lnsSetFile, lnsSetISA:
		p.ULEB()
	default:
		for range p.opcodeLengths[op-1] {
			p.ULEB()
		}
	}
	return false, false
}

// extended runs an extended opcode, whose length the reader's position
// must end at.
func (p *lineProgram) extended(s *lineState) (emit, end bool) {
	length := p.ULEB()
	start := p.Pos
	switch p.U8() {
	case lneEndSequence:
		emit, end = true, true
	case lneSetAddress:
		s.addr = p.address()
	case lneDefineFile:
		p.Bad = true
	case lneSetDiscriminator:
		s.discriminator = int(p.ULEB())
	}
	if length > uint64(len(p.B)-start) || uint64(p.Pos-start) > length {
		p.Bad = true
		return false, false
	}
	p.Pos = start + int(length)
	return emit, end
}

func (p *lineProgram) address() uint64 {
	switch p.addrSize {
	case 1:
		return uint64(p.U8())
	case 2:
		return uint64(p.U16())
	case 4:
		return uint64(p.U32())
	case 8:
		return p.U64()
	}
	p.Bad = true
	return 0
}
