package dwarfread

import (
	"debug/dwarf"
	"errors"
)

// ErrStuck: a DIE reader returned null entries without advancing.
var ErrStuck = errors.New("malformed DWARF: an abbreviation code does not end within its unit")

// maxNulls is how many null entries in a row a Reader returns. Null
// entries close a DIE's children (as many in a row as levels closed) and
// pad a unit by a few bytes; a million in a row is a reader that stopped
// advancing.
const maxNulls = 1 << 20

// Reader is a dwarf.Reader whose Next fails with ErrStuck rather than
// return null entries forever: Reader.Next reads an abbreviation code
// that does not end within its unit as 0 without moving past it, so a
// loop over Next on such a unit never ends.
type Reader struct {
	*dwarf.Reader
	nulls int // null entries returned in a row
}

// NewReader is a Reader at the start of d's .debug_info.
func NewReader(d *dwarf.Data) *Reader {
	return &Reader{Reader: d.Reader()}
}

// Next is Reader.Next, ErrStuck after maxNulls null entries in a row.
func (r *Reader) Next() (*dwarf.Entry, error) {
	e, err := r.Reader.Next()
	if e == nil || e.Tag != 0 {
		r.nulls = 0
		return e, err
	}
	if r.nulls++; r.nulls > maxNulls {
		return nil, ErrStuck
	}
	return e, err
}
