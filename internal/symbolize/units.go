package symbolize

import (
	"debug/dwarf"
	"encoding/binary"
	"io"
)

// DWARF 5 unit types (section 7.5.1) that hold code.
const (
	utCompile      = 1
	utPartial      = 3
	utSkeleton     = 4
	utSplitCompile = 5
)

// unitHeader is what symbolize needs of a unit header of .debug_info (or
// .debug_info.dwo).
type unitHeader struct {
	start    uint64       // offset of the unit's header
	end      uint64       // offset past the unit
	entry    dwarf.Offset // offset of the unit's first DIE
	version  int
	unitType uint8  // DWARF 5; 0 before
	dwoID    uint64 // DWARF 5 skeleton and split compile units
}

// mayHoldCode tells a unit that may describe code from a type unit.
func (h unitHeader) mayHoldCode() bool {
	switch h.unitType {
	case 0, utCompile, utPartial, utSkeleton, utSplitCompile:
		return true
	}
	return false
}

// readUnitHeaders reads the unit headers of a .debug_info section (DWARF 2
// to 5, 32- and 64-bit).
func readUnitHeaders(info io.ReaderAt) ([]unitHeader, bool) {
	var out []unitHeader
	var h [32]byte
	for off := int64(0); ; {
		n, err := info.ReadAt(h[:], off)
		if n == 0 && err == io.EOF {
			return out, true
		}
		if n < 12 {
			return nil, false
		}
		length, lenSize, offSize := uint64(binary.LittleEndian.Uint32(h[:])), int64(4), int64(4)
		if length == 0xffffffff {
			length, lenSize, offSize = binary.LittleEndian.Uint64(h[4:]), 12, 8
		}
		if n < 24 && offSize == 8 {
			return nil, false
		}
		u := unitHeader{start: uint64(off), version: int(binary.LittleEndian.Uint16(h[lenSize:]))}
		if u.version < 2 || u.version > 5 || length == 0 {
			return nil, false
		}
		hdr := lenSize + 2 + offSize + 1 // DWARF 2-4: version, abbrev offset, address size
		if u.version >= 5 {
			u.unitType = h[lenSize+2]
			hdr = lenSize + 2 + 1 + 1 + offSize // version, unit type, address size, abbrev offset
			switch u.unitType {
			case utSkeleton, utSplitCompile: // a DWO id follows
				if int64(n) < hdr+8 {
					return nil, false
				}
				u.dwoID = binary.LittleEndian.Uint64(h[hdr:])
				hdr += 8
			}
		}
		u.entry = dwarf.Offset(off + hdr)
		off += lenSize + int64(length)
		u.end = uint64(off)
		out = append(out, u)
	}
}

// unitAddrSize is the address size in the header of the unit at start
// of .debug_info; 0 when it cannot be read.
func unitAddrSize(info []byte, start uint64) int {
	if start+4 > uint64(len(info)) {
		return 0
	}
	pos, offSize := start+4, uint64(4)
	if binary.LittleEndian.Uint32(info[start:]) == 0xffffffff {
		pos, offSize = start+12, 8
	}
	if pos+2 > uint64(len(info)) {
		return 0
	}
	version := binary.LittleEndian.Uint16(info[pos:])
	pos += 2 + offSize // DWARF 2 to 4: the abbreviations' offset
	if version >= 5 {
		pos = pos - offSize + 1 // the unit type
	}
	if pos >= uint64(len(info)) {
		return 0
	}
	return int(info[pos])
}
