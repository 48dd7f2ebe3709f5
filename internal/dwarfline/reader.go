package dwarfline

import (
	"debug/dwarf"
	"errors"
)

// ErrMalformed stands for a line table debug/dwarf panics on, or would
// spend minutes or all memory on (a header whose counts it allocates for
// unchecked).
var ErrMalformed = errors.New("malformed line table")

// Reader is d.LineReader(cu), a panic of it ErrMalformed, as is a table
// whose header is not Bounded when .debug_line (sec) is at hand to check
// it. nil, nil when cu has no line table.
func Reader(d *dwarf.Data, cu *dwarf.Entry, sec []byte) (lr *dwarf.LineReader, err error) {
	if off, ok := cu.Val(dwarf.AttrStmtList).(int64); ok && sec != nil && off >= 0 && !Bounded(sec, uint64(off)) {
		return nil, ErrMalformed
	}
	defer func() {
		if recover() != nil {
			lr, err = nil, ErrMalformed
		}
	}()
	return d.LineReader(cu)
}

// Next is lr.Next(le), a panic of it ErrMalformed.
func Next(lr *dwarf.LineReader, le *dwarf.LineEntry) (err error) {
	defer func() {
		if recover() != nil {
			err = ErrMalformed
		}
	}()
	return lr.Next(le)
}
