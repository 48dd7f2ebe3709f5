package symbolize

import (
	"encoding/binary"
	"fmt"
)

// The unit index of a DWARF package (.debug_cu_index; DWARF 5 section
// 7.3.5, and the GNU version 2 format of DWARF 4 packages it grew from):
// for each split compilation unit, by its DWO id, where its contribution
// to each .dwo section of the package lies.

// Section kinds of the index's columns that both formats share.
const (
	sectInfo       = 1
	sectAbbrev     = 3
	sectLine       = 4
	sectStrOffsets = 6
	sectRnglists   = 8 // version 5 only (8 is DW_SECT_MACRO in version 2)
)

// contribution is a unit's part of one section of a package.
type contribution struct{ off, size uint32 }

// unitIndex maps DWO ids to the contributions of their units.
type unitIndex struct {
	version int
	rows    map[uint64]int // DWO id -> row
	columns []uint32       // section kind of each column
	offsets []uint32       // row-major: rows × columns
	sizes   []uint32
}

// parseUnitIndex reads a .debug_cu_index section.
func parseUnitIndex(b []byte) (*unitIndex, error) {
	if len(b) < 16 {
		return nil, fmt.Errorf(".debug_cu_index: %d bytes, shorter than its header", len(b))
	}
	le := binary.LittleEndian
	x := &unitIndex{version: int(le.Uint32(b))}
	if x.version != 2 {
		x.version = int(le.Uint16(b)) // version 5: 2 bytes and 2 of padding
	}
	if x.version != 2 && x.version != 5 {
		return nil, fmt.Errorf(".debug_cu_index: version %d, want 2 or 5", x.version)
	}
	columns, units, slots := uint64(le.Uint32(b[4:])), uint64(le.Uint32(b[8:])), uint64(le.Uint32(b[12:]))
	need := 16 + slots*12 + columns*4 + 2*units*columns*4
	if columns > 64 || units > slots || need > uint64(len(b)) {
		return nil, fmt.Errorf(".debug_cu_index: %d columns, %d units and %d slots do not fit in %d bytes", columns, units, slots, len(b))
	}
	ids, rows := b[16:], b[16+slots*8:]
	x.rows = make(map[uint64]int, units)
	for i := range slots {
		row := uint64(le.Uint32(rows[i*4:]))
		if row == 0 {
			continue
		}
		if row > units {
			return nil, fmt.Errorf(".debug_cu_index: slot %d names row %d of %d", i, row, units)
		}
		x.rows[le.Uint64(ids[i*8:])] = int(row - 1)
	}
	p := b[16+slots*12:]
	x.columns = words(p, columns)
	x.offsets = words(p[columns*4:], units*columns)
	x.sizes = words(p[columns*4+units*columns*4:], units*columns)
	return x, nil
}

func words(b []byte, n uint64) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[i*4:])
	}
	return out
}

// lookup returns the contributions of the unit with the given DWO id, by
// section kind.
func (x *unitIndex) lookup(id uint64) (map[uint32]contribution, bool) {
	row, ok := x.rows[id]
	if !ok {
		return nil, false
	}
	n := len(x.columns)
	out := make(map[uint32]contribution, n)
	for c, kind := range x.columns {
		out[kind] = contribution{x.offsets[row*n+c], x.sizes[row*n+c]}
	}
	return out, true
}
