package dwarfread

// BoundedLine reports whether the line table at off of .debug_line (sec) can
// be given to debug/dwarf's LineReader: in a DWARF 5 header, every entry
// of the directory and file name lists takes at least a byte and every
// list fits in the header. LineReader reads as many entries as a list's
// count says, allocating for each, without checking either: a count of
// 2^60 with an empty entry format takes it minutes, one of 2^40 with a
// one-byte format all memory. A DWARF 5 header that does not hold its
// fields within its header_length is not given either. Tables of other
// versions, and ones whose length is past the section, are left to
// LineReader.
func BoundedLine(sec []byte, off uint64) bool {
	h, c, ok := readLineHeader(sec, off, 0)
	switch {
	case h.Version < 5:
		return true
	case !ok || h.ProgramStart < uint64(c.Pos) || h.ProgramStart > uint64(len(c.B)):
		return false // fields past header_length
	}
	c.B = c.B[:h.ProgramStart]
	for range 2 { // directories, then file names
		if !skipEntryList(c, h.OffSize) {
			return false
		}
	}
	return !c.Bad
}

// skipEntryList skips a DWARF 5 entry format and its entries; false when
// an entry could take no bytes or the entries cannot fit in the header.
func skipEntryList(c *Cursor, offSize int) bool {
	formatCount := int(c.U8())
	forms := make([]uint64, formatCount)
	for i := range forms {
		c.ULEB() // content type
		forms[i] = c.ULEB()
	}
	count := c.ULEB()
	if c.Bad || count > 0 && formatCount == 0 || count > uint64(len(c.B)-c.Pos) {
		return false
	}
	for range count {
		for _, form := range forms {
			if !skipForm(c, form, offSize) {
				return false
			}
		}
	}
	return !c.Bad
}

// skipForm skips a value of the form; false for a form line headers do
// not hold.
func skipForm(c *Cursor, form uint64, offSize int) bool {
	switch form {
	case 0x0b, 0x25: // data1, strx1
		c.Skip(1)
	case 0x05, 0x26: // data2, strx2
		c.Skip(2)
	case 0x27: // strx3
		c.Skip(3)
	case 0x06, 0x28: // data4, strx4
		c.Skip(4)
	case 0x07: // data8
		c.Skip(8)
	case 0x1e: // data16
		c.Skip(16)
	case 0x0e, 0x1f, 0x1d: // strp, line_strp, strp_sup
		c.Skip(uint64(offSize))
	case 0x0f, 0x1a: // udata, strx
		c.ULEB()
	case 0x09: // block
		c.Skip(c.ULEB())
	case 0x08: // string
		for !c.Bad && c.U8() != 0 {
		}
	default:
		return false
	}
	return true
}
