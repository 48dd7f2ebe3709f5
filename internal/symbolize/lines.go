package symbolize

import (
	"sort"
)

// lineRow is one row of a DWARF line table.
type lineRow struct {
	addr          uint64
	line          uint32
	discriminator uint32
	endSequence   bool
}

// sortLineRows orders rows by address. At one address an end-of-sequence row
// comes first, so the row that starts the next sequence wins; rows of one
// sequence keep their order, so the last of several rows at one address wins,
// as in LLVM's lookup.
func sortLineRows(rows []lineRow) {
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].addr != rows[j].addr {
			return rows[i].addr < rows[j].addr
		}
		return rows[i].endSequence && !rows[j].endSequence
	})
}

// lineAt returns the line-table row covering addr.
func (t *Table) lineAt(addr uint64) (lineRow, bool) {
	i := sort.Search(len(t.lines), func(i int) bool { return t.lines[i].addr > addr })
	if i == 0 || t.lines[i-1].endSequence {
		return lineRow{}, false
	}
	return t.lines[i-1], true
}
