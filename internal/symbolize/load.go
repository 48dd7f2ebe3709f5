package symbolize

import (
	"debug/dwarf"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/profgen/profgen/internal/dwarfread"
)

// DWARF attributes that debug/dwarf does not name.
const (
	attrMIPSLinkageName  dwarf.Attr = 0x2007
	attrGNUDiscriminator dwarf.Attr = 0x2136
)

// subroutine is a DW_TAG_subprogram or DW_TAG_inlined_subroutine with code.
type subroutine struct {
	name              string
	file              string // DW_AT_decl_file of the function
	declLine          uint32
	callLine          uint32 // inlined only: where it was inlined
	callColumn        uint32
	callDiscriminator uint32
	parent            int32 // enclosing subroutine, -1 for none
	inlined           bool
	// trampoline: the subprogram carries DW_AT_trampoline (true), as Go's
	// compiler marks its generated wrappers. Whether a subroutine is a
	// wrapper (inlined copies too) goes by its name: see wrapperNames.
	trampoline bool
}

// interval is one address range of a subroutine; order is the subroutine's
// position in DIE order, so a nested (later) one wins where ranges overlap.
type interval struct {
	start, end uint64
	sub        int32
}

// declInfo holds what name and start-line lookups need from any subprogram
// DIE, including declarations and abstract instances without code.
type declInfo struct {
	name, linkageName string
	file              string // DW_AT_decl_file, "" when absent
	declLine          uint32
	hasDeclLine       bool
	origin, spec      dieKey // 0 when absent
}

// dieKey names a DIE: its offset, and the DWARF it is in (the key space):
// 0 for the binary's, a number of its own for each split unit read, whose
// offsets start anew in its .dwo file or package contribution.
type dieKey uint64

// key is the key of the DIE at off of the unit being read.
func (l *loader) key(off dwarf.Offset) dieKey {
	if off == 0 {
		return 0
	}
	return dieKey(l.space)<<32 | dieKey(off)
}

// binaryOffset is the offset of a DIE of the binary's DWARF, false for a
// DIE of a split unit.
func (k dieKey) binaryOffset() (dwarf.Offset, bool) {
	return dwarf.Offset(k), k>>32 == 0
}

// loader reads the DIEs and line tables of all compilation units.
type loader struct {
	d         *dwarf.Data
	wrappers  wrapperNames
	decls     map[dieKey]*declInfo
	read      []keyedDecl // declarations read, not yet in decls
	subs      []subroutine
	subOffs   []dieKey // DIE of each subroutine
	intervals []interval
	lines     []lineRow
	// topLevel lists the subprograms for the function table, topRanges
	// the address ranges of each.
	topLevel  []int32
	topRanges [][][2]uint64
	files     []*dwarf.LineFile // the file table of the unit being read
	split     *splitSource      // nil: split DWARF is refused
	// lineSection is .debug_line, when the file's sections are at hand:
	// line tables are then checked before LineReader reads them, and run
	// without it when they can be; unitAddrSize, the address size of
	// the unit being read.
	lineSection  []byte
	unitAddrSize int
	space        uint32 // key space of the unit being read
	spaces       uint32 // split units read
	// columns keeps the line table's columns (Options.Columns); without
	// it every row's column is 0, so rows differing only in column merge.
	columns bool
	// symbols are the binary's function symbols by address
	// (Options.Symbols); unlinked, the subroutines resolved without a
	// linkage name since they last named some (symnames.go).
	symbols  []Symbol
	unlinked []unlinkedSub
}

// column is the column a line-table row keeps: c, or 0 when the table
// keeps no columns.
func (l *loader) column(c int) uint32 {
	if !l.columns {
		return 0
	}
	return uint32(c)
}

func newLoader(d *dwarf.Data, split *splitSource) *loader {
	return &loader{d: d, split: split, decls: map[dieKey]*declInfo{}}
}

func (l *loader) load() error {
	r := dwarfread.NewReader(l.d)
	var last dwarf.Offset // .debug_info offset of the last unit read
	for {
		cu, err := r.Next()
		if err != nil {
			return fmt.Errorf("reading DWARF .debug_info after the unit at offset %#x: %w", last, err)
		}
		if cu == nil {
			break
		}
		last = cu.Offset
		if !holdsCode(cu) {
			r.SkipChildren()
			continue
		}
		ref, err := l.locateSplit(cu)
		if err != nil {
			return err
		}
		l.unitAddrSize = r.AddressSize()
		if err := l.loadLines(cu); err != nil {
			return err
		}
		if err := l.loadDIEs(r.Reader, cu, ref); err != nil {
			return fmt.Errorf("unit at .debug_info offset %#x: %w", cu.Offset, err)
		}
	}
	l.resolveNames()
	return nil
}

// loadDIEs reads the DIEs of unit cu (r positioned after its DIE), or
// those of its split unit when cu is a skeleton whose split unit ref was
// found; its line table must have been read.
func (l *loader) loadDIEs(r *dwarf.Reader, cu *dwarf.Entry, ref *splitRef) error {
	if ref != nil {
		return l.loadSplitDIEs(ref)
	}
	if cu.Children {
		return l.loadUnitDIEs(r, l.d.Ranges)
	}
	return nil
}

// locateSplit finds the split unit of skeleton cu; nil when cu is no
// skeleton or its split unit is missing.
func (l *loader) locateSplit(cu *dwarf.Entry) (*splitRef, error) {
	if !isSkeleton(cu) {
		return nil, nil
	}
	if l.split == nil {
		return nil, fmt.Errorf("split DWARF: the unit at .debug_info offset %#x keeps its debug information in a .dwo file (-gsplit-dwarf), and the symbolizer was not given the binary's sections to read it with", cu.Offset)
	}
	return l.split.locate(cu)
}

// loadSplitDIEs reads the DIEs of a split unit, in a key space of its own.
func (l *loader) loadSplitDIEs(ref *splitRef) error {
	su, done, err := l.split.open(ref)
	if err != nil {
		return err
	}
	defer done()
	r := su.d.Reader()
	r.Seek(su.entry)
	cu, err := r.Next()
	if err != nil {
		return fmt.Errorf("split DWARF unit %s: %w", ref.skel.name, err)
	}
	if cu == nil || !cu.Children {
		return nil
	}
	l.spaces++
	l.space = l.spaces
	defer func() { l.space = 0 }()
	if err := l.loadUnitDIEs(r, su.rangesOf); err != nil {
		return fmt.Errorf("split DWARF unit %s: %w", ref.skel.name, err)
	}
	return nil
}

// holdsCode tells the unit DIEs that may describe code.
func holdsCode(cu *dwarf.Entry) bool {
	return cu.Tag == dwarf.TagCompileUnit || cu.Tag == dwarf.TagPartialUnit || cu.Tag == dwarf.TagSkeletonUnit
}

// rangesFunc returns the address ranges of a DIE, which may be valid only
// until the next call.
type rangesFunc func(*dwarf.Entry) ([][2]uint64, error)

// dieSource yields DIEs in order: a *dwarf.Reader, or a dieReader.
type dieSource interface {
	Next() (*dwarf.Entry, error)
}

// loadUnitDIEs reads the children of a unit DIE, tracking the enclosing
// subroutine of each DIE.
func (l *loader) loadUnitDIEs(r dieSource, ranges rangesFunc) error {
	stack := []int32{-1} // enclosing subroutine per open level
	for len(stack) > 0 {
		e, err := r.Next()
		if err != nil {
			return fmt.Errorf("reading DWARF: %w", err)
		}
		if e == nil {
			return nil
		}
		if e.Tag == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		parent := stack[len(stack)-1]
		self := parent
		if e.Tag == dwarf.TagSubprogram || e.Tag == dwarf.TagInlinedSubroutine {
			l.recordDecl(e)
			self = l.addSubroutine(e, parent, ranges)
		}
		if e.Children {
			stack = append(stack, self)
		}
	}
	return nil
}

// recordDecl adds e to the declarations read (see addDecls).
func (l *loader) recordDecl(e *dwarf.Entry) {
	l.read = append(l.read, keyedDecl{key: l.key(e.Offset)})
	di := &l.read[len(l.read)-1].info
	di.name, _ = e.Val(dwarf.AttrName).(string)
	di.linkageName, _ = e.Val(dwarf.AttrLinkageName).(string)
	if di.linkageName == "" {
		di.linkageName, _ = e.Val(attrMIPSLinkageName).(string)
	}
	if v, ok := e.Val(dwarf.AttrDeclLine).(int64); ok {
		di.declLine, di.hasDeclLine = uint32(v), true
	}
	if fi, ok := e.Val(dwarf.AttrDeclFile).(int64); ok && fi >= 0 && int(fi) < len(l.files) && l.files[fi] != nil {
		di.file = l.files[fi].Name
	}
	origin, _ := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset)
	spec, _ := e.Val(dwarf.AttrSpecification).(dwarf.Offset)
	di.origin, di.spec = l.key(origin), l.key(spec)
}

// keyedDecl is a declaration read, with the key of its DIE.
type keyedDecl struct {
	key  dieKey
	info declInfo
}

// addDecls makes the declarations read so far, and those of read, the
// ones name lookups find. Declarations are read into a slice and looked
// up in a map: a unit read on a goroutine of its own (unitload.go) adds
// its declarations to the map of the tables once, when it joins them.
func (l *loader) addDecls(read []keyedDecl) {
	for _, r := range [][]keyedDecl{l.read, read} {
		for i := range r {
			l.decls[r[i].key] = &r[i].info
		}
	}
	l.read = nil
}

// addSubroutine records e when it has code and returns its index, or parent
// when it has none (its children still belong to parent).
func (l *loader) addSubroutine(e *dwarf.Entry, parent int32, ranges rangesFunc) int32 {
	rs, err := ranges(e)
	if err != nil || len(rs) == 0 {
		return parent
	}
	s := subroutine{parent: parent, inlined: e.Tag == dwarf.TagInlinedSubroutine}
	s.trampoline, _ = e.Val(dwarf.AttrTrampoline).(bool)
	if s.inlined {
		s.callLine = uintAttr(e, dwarf.AttrCallLine)
		s.callColumn = uintAttr(e, dwarf.AttrCallColumn)
		s.callDiscriminator = uintAttr(e, attrGNUDiscriminator)
	}
	idx := int32(len(l.subs))
	l.subs = append(l.subs, s)
	l.subOffs = append(l.subOffs, l.key(e.Offset))
	for _, r := range rs {
		if r[0] < r[1] {
			l.intervals = append(l.intervals, interval{r[0], r[1], idx})
		}
	}
	if !s.inlined {
		l.topLevel = append(l.topLevel, idx)
		l.topRanges = append(l.topRanges, slices.Clone(rs))
	}
	return idx
}

func uintAttr(e *dwarf.Entry, a dwarf.Attr) uint32 {
	switch v := e.Val(a).(type) {
	case int64:
		return uint32(v)
	case uint64:
		return uint32(v)
	}
	return 0
}

func (l *loader) loadLines(cu *dwarf.Entry) error {
	lr, err := dwarfread.LineReader(l.d, cu, l.lineSection)
	if err != nil {
		return fmt.Errorf("reading line table of unit at %#x: %w", cu.Offset, err)
	}
	l.files = nil
	if lr == nil {
		return nil
	}
	l.files = lr.Files()
	if l.runLineProgram(cu) {
		return nil
	}
	var le dwarf.LineEntry
	seqStart := len(l.lines)
	for {
		err := dwarfread.NextLine(lr, &le)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading line table of unit at %#x: %w", cu.Offset, err)
		}
		l.addLineRow(lineRow{
			addr:          le.Address,
			line:          uint32(le.Line),
			discriminator: uint32(le.Discriminator),
			column:        l.column(le.Column),
			endSequence:   le.EndSequence,
		}, seqStart)
		if le.EndSequence {
			seqStart = len(l.lines)
		}
	}
}

// runLineProgram appends the rows of cu's line table without LineReader
// when it can (lineprog.go); false, having appended none, when it
// cannot.
func (l *loader) runLineProgram(cu *dwarf.Entry) bool {
	off, ok := cu.Val(dwarf.AttrStmtList).(int64)
	if !ok || off < 0 || l.lineSection == nil {
		return false
	}
	p, ok := newLineProgram(l.lineSection, uint64(off), l.unitAddrSize)
	if !ok {
		return false
	}
	n := len(l.lines)
	if !p.run(l) {
		l.lines = l.lines[:n]
		return false
	}
	return true
}

// addLineRow appends a row of the sequence starting at row seqStart,
// keeping only what lookups can tell apart: of rows at one address the
// last, and no row that repeats the line and discriminator of the row
// before it.
func (l *loader) addLineRow(r lineRow, seqStart int) {
	if n := len(l.lines); n > seqStart && !r.endSequence {
		prev := &l.lines[n-1]
		if prev.line == r.line && prev.discriminator == r.discriminator && prev.column == r.column {
			return
		}
		if prev.addr == r.addr {
			*prev = r
			return
		}
	}
	l.lines = append(l.lines, r)
}

// resolveNames fills each subroutine's name and start line, following
// DW_AT_abstract_origin and DW_AT_specification as LLVM does: a linkage name
// anywhere on the chain wins over a plain name, and a C++ function without
// one takes its ELF symbol's (nameFromSymbols).
func (l *loader) resolveNames() {
	l.addDecls(nil)
	for i := range l.subOffs {
		l.resolve(i, nil)
	}
	l.nameFromSymbols(l.topLevel, l.topRanges, 0)
	l.markWrappers(0)
}

// resolve fills subroutine i's name, file and start line from its DIE,
// in one walk of the chain: of each, the first the walk finds. A DIE of
// the chain not in decls is passed to absent (when not nil): when it
// returns true (the DIE is still to be read), resolve stops and returns
// false, leaving the subroutine as it was. A subroutine named without a
// linkage name is listed in unlinked, with the DIE its name came from.
func (l *loader) resolve(i int, absent func(dieKey) bool) bool {
	s := &l.subs[i]
	var linkage, name, file string
	var nameDIE dieKey
	var line uint32
	var hasFile, hasLine bool
	done := l.walkDecls(l.subOffs[i], func(k dieKey, d *declInfo) bool {
		if linkage == "" {
			linkage = d.linkageName
		}
		if name == "" {
			name, nameDIE = d.name, k
		}
		if !hasFile && d.file != "" {
			file, hasFile = d.file, true
		}
		if !hasLine && d.hasDeclLine {
			line, hasLine = d.declLine, true
		}
		return linkage != "" && hasFile && hasLine
	}, absent)
	if !done {
		return false
	}
	s.name = linkage
	if s.name == "" && name != "" {
		s.name = name
		l.unlinked = append(l.unlinked, unlinkedSub{sub: int32(i), decl: nameDIE})
	}
	if hasFile {
		s.file = file
	}
	if hasLine {
		s.declLine = line
	}
	return true
}

// markWrappers adds the names of the trampolines among the subroutines
// from index first on (those a lazily loaded unit added) to the wrapper
// names, once they are named.
func (l *loader) markWrappers(first int) {
	for _, s := range l.subs[first:] {
		if s.trampoline {
			l.wrappers.add(s.name)
		}
	}
}

// wrapperNames are the names of the subprograms that some subprogram of
// that name marks as a trampoline: Go's wrappers (method values' -fm,
// promoted and pointer-receiver methods), which Go's own profiler leaves
// out of stacks. An inlined copy of a wrapper carries no mark of its
// own: it is one by name. The names are looked up when frames are asked
// for, not when a unit loads, so that a subroutine is a wrapper when any
// unit loaded so far marks its name, whatever the order units loaded in.
type wrapperNames map[string]bool

func (w *wrapperNames) add(name string) {
	if *w == nil {
		*w = wrapperNames{}
	}
	(*w)[name] = true
}

// has reports whether name is a wrapper's.
func (w wrapperNames) has(name string) bool {
	return len(w) > 0 && w[name]
}

// walkDecls visits the DIE at off and then, breadth first, the DIEs its
// abstract origin and specification refer to (each with its key), until
// visit returns true.
// A DIE not in decls is passed to absent, when not nil: when it returns
// true, the walk stops and walkDecls returns false.
func (l *loader) walkDecls(off dieKey, visit func(dieKey, *declInfo) bool, absent func(dieKey) bool) bool {
	var buf [8]dieKey
	queue := append(buf[:0], off)
	for i := 0; i < len(queue); i++ {
		o := queue[i]
		if slices.Contains(queue[:i], o) {
			continue
		}
		d := l.decls[o]
		if d == nil {
			if absent != nil && absent(o) {
				return false
			}
			continue
		}
		if visit(o, d) {
			return true
		}
		for _, next := range []dieKey{d.origin, d.spec} {
			if next != 0 {
				queue = append(queue, next)
			}
		}
	}
	return true
}
