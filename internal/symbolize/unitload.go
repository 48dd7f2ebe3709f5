package symbolize

import (
	"debug/dwarf"
	"encoding/binary"
	"slices"
)

// Loading a unit is two steps: reading it (parse), which touches nothing
// but the unit and may run on several goroutines at once (see Prefetch),
// and joining what was read to the tables (join), one unit at a time
// under the lazy tables' lock, in an order that does not depend on which
// reading ends first.

// unitParse is one unit as read, before it joins the tables.
type unitParse struct {
	// l is the unit's own loader: its subroutines (indexes from 0,
	// parents within the unit), their DIEs, the declarations and the
	// top-level subprograms with their ranges.
	l *loader
	// segs are the unit's address segments (subroutines indexed as in
	// l), lines its line rows, sorted.
	segs  []segment
	lines []lineRow
	// linesOK: its line table was read; diesOK: its DIEs were read whole.
	linesOK, diesOK bool
}

// parse reads unit i. The split unit of a skeleton is read through the
// lazy tables' split source, which only the goroutine joining units may
// use: parse such a unit there, right before joining it.
func (z *lazyTables) parse(i int) *unitParse {
	u := &z.units[i]
	p := &unitParse{l: newLoader(z.d, nil)}
	p.l.columns = z.l.columns
	p.l.presize(u.size)
	if z.dies != nil {
		p.l.lineSection, p.l.unitAddrSize = z.dies.line, unitAddrSize(z.dies.info, u.start)
	}
	if u.split != nil {
		p.l.split, p.l.spaces = z.l.split, z.l.spaces
	}
	r := z.d.Reader()
	r.Seek(u.entry)
	cu, err := r.Next()
	if err != nil || cu == nil {
		return p
	}
	p.l.lines = make([]lineRow, 0, z.lineRowsHint(cu))
	if p.l.loadLines(cu) != nil {
		return p
	}
	p.linesOK = true
	if err := z.loadDIEs(p.l, u, r, cu); err != nil {
		return p
	}
	p.diesOK = true
	p.segs = flatten(p.l.intervals)
	sortLineRows(p.l.lines)
	p.lines = p.l.lines
	return p
}

// join adds unit i, as p read it, to the tables; it returns the names of
// the functions it defines.
func (z *lazyTables) join(i int, p *unitParse) []string {
	u := &z.units[i]
	u.loaded = true
	if !p.linesOK {
		return nil
	}
	u.decls = true
	first := z.addSubroutines(p.l)
	if !p.diesOK {
		return nil
	}
	z.resolveNames(first)
	z.l.nameFromSymbols(p.l.topLevel, p.l.topRanges, first)
	z.l.markWrappers(first)
	u.segs = shiftSegments(p.segs, int32(first))
	u.lines = p.lines
	u.funcs = z.funcTable(i, p.l, first)
	names := make([]string, 0, len(u.funcs))
	for _, fr := range u.funcs {
		names = append(names, fr.Func.Name)
	}
	return names
}

// addSubroutines appends the subroutines and declarations p read to the
// lazy tables' loader and returns the index of the first.
func (z *lazyTables) addSubroutines(p *loader) int {
	l := z.l
	first := len(l.subs)
	l.subs = slices.Grow(l.subs, len(p.subs))
	for _, s := range p.subs {
		if s.parent >= 0 {
			s.parent += int32(first)
		}
		l.subs = append(l.subs, s)
	}
	l.subOffs = append(l.subOffs, p.subOffs...)
	l.addDecls(p.read)
	l.spaces = max(l.spaces, p.spaces)
	return first
}

// shiftSegments adds first to the subroutine index of each segment.
func shiftSegments(segs []segment, first int32) []segment {
	for i := range segs {
		segs[i].sub += first
	}
	return segs
}

// lineRowsHint guesses how many rows loadLines keeps of unit cu's line
// table, from its size, so that they are appended without copies: a row
// takes 5 to 7 bytes of the line programs of Go and clang, and some rows
// are dropped; 0 when the size is unknown.
func (z *lazyTables) lineRowsHint(cu *dwarf.Entry) int {
	off, ok := cu.Val(dwarf.AttrStmtList).(int64)
	line := z.lineSection()
	if !ok || off < 0 || off > int64(len(line))-4 {
		return 0
	}
	size := binary.LittleEndian.Uint32(line[off:]) // 0xffffffff for 64-bit DWARF: capped
	return int(min(size, 1<<26) / 4)
}

// presize makes room in the loader's slices for the DIEs of a unit of
// size bytes of .debug_info (header included), so that they are appended
// without copies: the units of Go and clang have a subprogram or inlined
// subroutine, and as many declarations, every 30 to 70 bytes, each
// with one to two address ranges.
func (l *loader) presize(size uint64) {
	n := l.presizeSubroutines(size)
	l.read = slices.Grow(l.read, n)
	l.intervals = slices.Grow(l.intervals, 2*n)
}

// presizeSubroutines makes room for the subroutines of units of size
// bytes of .debug_info (see presize) and returns how many that is.
func (l *loader) presizeSubroutines(size uint64) int {
	n := int(min(size, 1<<30) / 48)
	l.subs = slices.Grow(l.subs, n)
	l.subOffs = slices.Grow(l.subOffs, n)
	return n
}
