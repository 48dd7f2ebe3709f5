package symbolize

// boundedLineHeader reports whether the line table at off of .debug_line
// (sec) can be given to debug/dwarf's LineReader: in a DWARF 5 header,
// every entry of the directory and file name lists takes at least a byte
// and every list fits in the header. LineReader reads as many entries as
// a list's count says, allocating for each, without checking either: a
// count of 2^60 with an empty entry format takes it minutes. A DWARF 5
// header that does not hold its fields within its header_length is not
// given either. Tables of other versions, and ones whose length is past
// the section, are left to LineReader.
func boundedLineHeader(sec []byte, off uint64) bool {
	h, hd, ok := readLineHeader(sec, off, 0)
	switch {
	case hd.version < 5:
		return true
	case !ok || hd.programStart < uint64(h.pos) || hd.programStart > uint64(len(h.b)):
		return false // fields past header_length
	}
	h.b = h.b[:hd.programStart]
	for range 2 { // directories, then file names
		if !h.skipEntryList(hd.offSize) {
			return false
		}
	}
	return !h.bad
}

// skipEntryList skips a DWARF 5 entry format and its entries; false when
// an entry could take no bytes or the entries cannot fit in the header.
func (h *lineProgram) skipEntryList(offSize int) bool {
	formatCount := int(h.u8())
	forms := make([]uint64, formatCount)
	for i := range forms {
		h.uleb() // content type
		forms[i] = h.uleb()
	}
	count := h.uleb()
	if h.bad || count > 0 && formatCount == 0 || count > uint64(len(h.b)-h.pos) {
		return false
	}
	for range count {
		for _, form := range forms {
			if !h.skipForm(form, offSize) {
				return false
			}
		}
	}
	return !h.bad
}

// skipForm skips a value of the form; false for a form line headers do
// not hold.
func (h *lineProgram) skipForm(form uint64, offSize int) bool {
	switch form {
	case 0x0b, 0x25: // data1, strx1
		h.skip(1)
	case 0x05, 0x26: // data2, strx2
		h.skip(2)
	case 0x27: // strx3
		h.skip(3)
	case 0x06, 0x28: // data4, strx4
		h.skip(4)
	case 0x07: // data8
		h.skip(8)
	case 0x1e: // data16
		h.skip(16)
	case 0x0e, 0x1f, 0x1d: // strp, line_strp, strp_sup
		h.skip(uint64(offSize))
	case 0x0f, 0x1a: // udata, strx
		h.uleb()
	case 0x09: // block
		h.skip(h.uleb())
	case 0x08: // string
		for !h.bad && h.u8() != 0 {
		}
	default:
		return false
	}
	return true
}

// skip moves past n bytes; past the end it sets bad.
func (h *lineProgram) skip(n uint64) {
	if h.bad || n > uint64(len(h.b)-h.pos) {
		h.bad = true
		return
	}
	h.pos += int(n)
}
