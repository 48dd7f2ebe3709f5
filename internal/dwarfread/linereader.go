package dwarfread

import (
	"debug/dwarf"
	"errors"
)

// ErrMalformedLines stands for a line table debug/dwarf panics on, or would
// spend minutes or all memory on (a header whose counts it allocates for
// unchecked).
var ErrMalformedLines = errors.New("malformed line table")

// LineReader is d.LineReader(cu), a panic of it ErrMalformedLines, as is a table
// whose header is not BoundedLine when .debug_line (sec) is at hand to check
// it. nil, nil when cu has no line table.
func LineReader(d *dwarf.Data, cu *dwarf.Entry, sec []byte) (lr *dwarf.LineReader, err error) {
	if off, ok := cu.Val(dwarf.AttrStmtList).(int64); ok && sec != nil && off >= 0 && !BoundedLine(sec, uint64(off)) {
		return nil, ErrMalformedLines
	}
	defer func() {
		if recover() != nil {
			lr, err = nil, ErrMalformedLines
		}
	}()
	return d.LineReader(cu)
}

// NextLine is lr.Next(le), a panic of it ErrMalformedLines.
func NextLine(lr *dwarf.LineReader, le *dwarf.LineEntry) (err error) {
	defer func() {
		if recover() != nil {
			err = ErrMalformedLines
		}
	}()
	return lr.Next(le)
}
