package dwarfread

// LineHeader is what running a line table's program needs from its header.
type LineHeader struct {
	Version, OffSize int
	AddrSize         int // from a DWARF 5 header, else the unit's
	MinInst, MaxOps  int
	LineBase         int
	LineRange        int
	OpcodeBase       int
	OpcodeLengths    []byte // of opcodes 1 to OpcodeBase-1
	Table            []byte // the whole table, from its unit length on
	ProgramStart     uint64 // the offset of the program in Table
}

// ReadLineHeader reads the header of the line table at off of sec up to its
// standard_opcode_lengths (a DWARF 5 header's entry lists follow);
// unitAddrSize is the address size of the table's unit. ok is false when
// the header does not fit in the table; Version is 0 when the table's
// length does not fit in sec.
func ReadLineHeader(sec []byte, off uint64, unitAddrSize int) (LineHeader, bool) {
	h, _, ok := readLineHeader(sec, off, unitAddrSize)
	return h, ok
}

// readLineHeader is ReadLineHeader, with the cursor after the opcode lengths.
func readLineHeader(sec []byte, off uint64, unitAddrSize int) (h LineHeader, c *Cursor, ok bool) {
	if off >= uint64(len(sec)) {
		return h, nil, false
	}
	c = &Cursor{B: sec[off:]}
	length, offSize := uint64(c.U32()), 4
	if length == 0xffffffff {
		length, offSize = c.U64(), 8
	}
	if c.Bad || length > uint64(len(c.B)-c.Pos) {
		return h, nil, false
	}
	c.B = c.B[:c.Pos+int(length)]
	h.Version, h.OffSize, h.Table = int(c.U16()), offSize, c.B
	h.AddrSize = unitAddrSize
	if h.Version >= 5 {
		h.AddrSize = int(c.U8())
		c.U8() // segment selector size
	}
	headerLength := c.Offset(offSize)
	h.ProgramStart = uint64(c.Pos) + headerLength
	h.readOpcodeFields(c)
	return h, c, !c.Bad
}

// readOpcodeFields reads the header's fields from minimum_instruction_length
// to standard_opcode_lengths.
func (h *LineHeader) readOpcodeFields(c *Cursor) {
	h.MinInst = int(c.U8())
	h.MaxOps = 1
	if h.Version >= 4 {
		h.MaxOps = int(c.U8())
	}
	c.U8() // default_is_stmt
	h.LineBase = int(int8(c.U8()))
	h.LineRange = int(c.U8())
	h.OpcodeBase = int(c.U8())
	h.OpcodeLengths = c.Bytes(max(h.OpcodeBase-1, 0))
}
