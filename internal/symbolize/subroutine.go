package symbolize

import "sort"

// SubroutineAt returns the address segment holding addr that one
// subroutine (a subprogram or an inlined instance) owns as the innermost
// one, [start, end), and that subroutine's index; sub is -1 when no
// subroutine covers addr. Every address of a segment has the same inline
// frames but for the leaf frame's line: callers of Frames that only need
// the inline context can key it by sub. A lazily loaded table loads the
// unit holding addr; subroutine indexes are the same across units.
func (t *Table) SubroutineAt(addr uint64) (start, end uint64, sub int32) {
	segs := t.segs
	if t.lazy != nil {
		u := t.lazy.unitAt(addr)
		if u == nil {
			return 0, 0, -1
		}
		segs = u.segs
	}
	i := sort.Search(len(segs), func(i int) bool { return segs[i].end > addr })
	if i < len(segs) && segs[i].start <= addr {
		s := segs[i]
		return s.start, s.end, s.sub
	}
	return 0, 0, -1
}

// Span returns the addresses [start, end) that subroutines cover, from
// the lowest to the highest; Frames is empty outside.
func (t *Table) Span() (start, end uint64) {
	if t.lazy != nil {
		return t.lazy.span()
	}
	if len(t.segs) == 0 {
		return 0, 0
	}
	return t.segs[0].start, t.segs[len(t.segs)-1].end
}
