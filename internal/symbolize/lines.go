package symbolize

import (
	"cmp"
	"slices"
	"sort"
)

// lineRow is one row of a DWARF line table.
type lineRow struct {
	addr          uint64
	line          uint32
	discriminator uint32
	column        uint32 // 0 unless the table keeps columns (Options.Columns)
	endSequence   bool
}

// sortLineRows orders rows by address. At one address an end-of-sequence
// row comes first, so the row that starts the next sequence wins; rows of
// one sequence keep their order.
func sortLineRows(rows []lineRow) {
	if !slices.IsSortedFunc(rows, compareLineRows) {
		slices.SortStableFunc(rows, compareLineRows)
	}
}

func compareLineRows(a, b lineRow) int {
	if a.addr != b.addr {
		return cmp.Compare(a.addr, b.addr)
	}
	switch {
	case a.endSequence && !b.endSequence:
		return -1
	case b.endSequence && !a.endSequence:
		return 1
	}
	return 0
}

// lineAt returns the line-table row covering addr.
func lineAt(lines []lineRow, addr uint64) (lineRow, bool) {
	i := sort.Search(len(lines), func(i int) bool { return lines[i].addr > addr })
	if i == 0 || lines[i-1].endSequence {
		return lineRow{}, false
	}
	return lines[i-1], true
}
