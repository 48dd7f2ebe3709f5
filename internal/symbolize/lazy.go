package symbolize

import (
	"cmp"
	"debug/dwarf"
	"io"
	"slices"
	"sort"
	"sync"

	"github.com/profgen/profgen/internal/dwarfread"
)

// Lazy loading: the DWARF of a large binary is gigabytes, and a profile
// touches a small part of its code. New then reads only the unit headers
// and each compilation unit's address ranges; a unit's DIEs and line table
// are read the first time an address in it is asked about (a unit without
// ranges holds no code: it is never loaded). It applies when
// the units' ranges (at or above the preferred base: below it lies code the
// linker dropped) do not overlap, so that every address belongs to one
// unit and a unit answers as the whole table would; else New loads all.
// Prefetch loads the units a batch of addresses needs at once, reading
// them on several goroutines (prefetch.go, unitload.go).
//
// A function is grouped by name across units (Function.Ranges); a name of
// several functions (static functions of one name in several files) has
// several ELF symbols of that name, so loading a unit also loads the units
// of the other symbols of its functions' names (see MarkEntries), before
// the entries are marked.

// unitInfo is one compilation unit.
type unitInfo struct {
	start  uint64       // offset of the unit's header
	size   uint64       // its length in .debug_info, header included
	entry  dwarf.Offset // offset of the unit's DIE
	split  *splitRef    // a skeleton's split unit, nil if none (or missing)
	ranges [][2]uint64
	loaded bool
	decls  bool // loaded: its subprogram DIEs are in the loader's decls
	segs   []segment
	lines  []lineRow
	funcs  funcTable
}

// unitRange maps an address range to its unit.
type unitRange struct {
	start, end uint64
	unit       int
}

type lazyTables struct {
	mu     sync.Mutex
	d      *dwarf.Data
	l      *loader
	base   uint64
	units  []unitInfo
	byAddr []unitRange
	byName map[string]*Function
	seen   map[uint64]bool
	// dies are the sections units are read from without debug/dwarf, nil
	// when they cannot be; abbrevs, the abbreviation tables read, by
	// offset (units are read on several goroutines: see abbrevMu).
	dies     *dieSections
	abbrevs  map[uint64]abbrevTable
	abbrevMu sync.Mutex
	// tried holds the DIEs of other units read for their declarations;
	// files, the file tables of those units.
	tried map[dwarf.Offset]bool
	files map[int]fileTable
	// syms are the ELF symbols MarkEntries was given; dups, the
	// addresses of the symbols of each name that several symbols have.
	syms []Symbol
	dups map[string][]uint64
}

// newLazy indexes the units of d, or returns nil when lazy loading does
// not apply (no section reader, unreadable ranges, overlapping units).
func newLazy(d *dwarf.Data, info io.ReaderAt, base uint64, split *splitSource, columns bool) *lazyTables {
	if info == nil {
		return nil
	}
	hs, ok := codeUnitHeaders(info)
	if !ok || len(hs) == 0 {
		return nil
	}
	z := &lazyTables{d: d, l: newLoader(d, split), base: base, byName: map[string]*Function{}, seen: map[uint64]bool{}, abbrevs: map[uint64]abbrevTable{},
		tried: map[dwarf.Offset]bool{}, files: map[int]fileTable{}}
	z.l.columns = columns
	r := d.Reader()
	for _, h := range hs {
		off := h.entry
		r.Seek(off)
		cu, err := r.Next()
		if err != nil || cu == nil || cu.Offset != off {
			return nil
		}
		if !holdsCode(cu) {
			continue
		}
		rs, err := d.Ranges(cu)
		if err != nil {
			return nil
		}
		ref, err := z.l.locateSplit(cu)
		if err != nil {
			return nil
		}
		// A unit without ranges holds no code (Go emits such units for
		// packages without functions); it stays listed, for the DIEs
		// other units refer to.
		u := unitInfo{start: h.start, size: h.end - h.start, entry: off, split: ref}
		for _, rg := range rs {
			if rg[0] >= base && rg[0] < rg[1] {
				u.ranges = append(u.ranges, rg)
				z.byAddr = append(z.byAddr, unitRange{rg[0], rg[1], len(z.units)})
			}
		}
		z.units = append(z.units, u)
	}
	slices.SortFunc(z.byAddr, func(a, b unitRange) int { return cmp.Compare(a.start, b.start) })
	for i := 1; i < len(z.byAddr); i++ {
		if z.byAddr[i].start < z.byAddr[i-1].end && z.byAddr[i].unit != z.byAddr[i-1].unit {
			return nil
		}
	}
	return z
}

// codeUnitHeaders returns the headers of the units of .debug_info that
// may hold code (not type units).
func codeUnitHeaders(info io.ReaderAt) ([]unitHeader, bool) {
	hs, ok := readUnitHeaders(info)
	if !ok {
		return nil, false
	}
	var out []unitHeader
	for _, h := range hs {
		if h.mayHoldCode() {
			out = append(out, h)
		}
	}
	return out, true
}

// unitAt returns the unit holding addr, loaded, or nil.
func (z *lazyTables) unitAt(addr uint64) *unitInfo {
	z.mu.Lock()
	defer z.mu.Unlock()
	i := z.find(addr)
	if i < 0 {
		return nil
	}
	if !z.units[i].loaded {
		z.loadGroup(i, nil)
	}
	return &z.units[i]
}

// allFuncs loads every unit and returns all their function ranges in
// address order.
func (z *lazyTables) allFuncs() funcTable {
	var all funcTable
	for _, r := range z.byAddr {
		if u := z.unitAt(r.start); u != nil {
			all = append(all, u.funcs...)
		}
	}
	slices.SortStableFunc(all, func(a, b *FuncRange) int { return cmp.Compare(a.Start, b.Start) })
	return slices.CompactFunc(all, func(a, b *FuncRange) bool { return a == b })
}

// span is the addresses [start, end) the units cover, lowest to highest.
func (z *lazyTables) span() (start, end uint64) {
	if len(z.byAddr) == 0 {
		return 0, 0
	}
	start = z.byAddr[0].start
	for _, r := range z.byAddr {
		end = max(end, r.end)
	}
	return start, end
}

// find returns the unit holding addr, -1 for none.
func (z *lazyTables) find(addr uint64) int {
	if i := z.rangeAt(addr); i >= 0 {
		return z.byAddr[i].unit
	}
	return -1
}

// rangeAt returns the index in byAddr of the range holding addr, -1 for
// none.
func (z *lazyTables) rangeAt(addr uint64) int {
	i := sort.Search(len(z.byAddr), func(i int) bool { return z.byAddr[i].end > addr })
	if i < len(z.byAddr) && z.byAddr[i].start <= addr {
		return i
	}
	return -1
}

// loadGroup loads unit i and the units of the other functions of the
// names it defines, then marks their entries. p is unit i as read, nil
// when it is still to be read.
func (z *lazyTables) loadGroup(i int, p *unitParse) {
	queue := []int{i}
	var group []int
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if z.units[u].loaded {
			continue
		}
		read := p
		if u != i || read == nil {
			read = z.parse(u)
		}
		names := z.join(u, read)
		group = append(group, u)
		for _, name := range names {
			for _, a := range z.dups[name] {
				if j := z.find(a); j >= 0 && !z.units[j].loaded {
					queue = append(queue, j)
				}
			}
		}
	}
	for _, u := range group {
		z.markEntries(&z.units[u])
	}
}

// resolveNames resolves the subroutines from index first on, reading on
// the way the DIEs of the other units that their abstract origins or
// specifications refer to: each DIE on its own (with its unit's file
// table), not the units whole. A subroutine whose chain reaches such a
// DIE, not read yet, before its walk ends is resolved in a next round,
// once the DIEs this round listed are read; a DIE is read once (one that
// is no subprogram is never recorded).
func (z *lazyTables) resolveNames(first int) {
	l := z.l
	var pending []int
	var toRead []dwarf.Offset
	listed := map[dwarf.Offset]bool{}
	unread := func(k dieKey) bool {
		o, ok := k.binaryOffset()
		if !ok {
			return false
		}
		if u := z.unitOfOffset(o); u < 0 || z.units[u].decls || z.tried[o] {
			return false
		}
		if !listed[o] {
			listed[o] = true
			toRead = append(toRead, o)
		}
		return true
	}
	for i := first; i < len(l.subs); i++ {
		if !l.resolve(i, unread) {
			pending = append(pending, i)
		}
	}
	for len(pending) > 0 {
		for _, o := range toRead {
			z.tried[o] = true
			z.readDecl(o)
		}
		toRead = toRead[:0]
		clear(listed)
		left := pending[:0]
		for _, i := range pending {
			if !l.resolve(i, unread) {
				left = append(left, i)
			}
		}
		pending = left
	}
}

func (z *lazyTables) unitOfOffset(o dwarf.Offset) int {
	i := sort.Search(len(z.units), func(i int) bool { return z.units[i].entry > o })
	return i - 1
}

// readDecl records the DIE at off when it is a subprogram or an inlined
// subroutine, without loading its unit's code.
func (z *lazyTables) readDecl(off dwarf.Offset) {
	files, ok := z.unitFiles(z.unitOfOffset(off))
	if !ok {
		return
	}
	r := z.d.Reader()
	r.Seek(off)
	e, err := r.Next()
	if err != nil || e == nil || e.Offset != off || e.Tag != dwarf.TagSubprogram && e.Tag != dwarf.TagInlinedSubroutine {
		return
	}
	l := z.l
	saved := l.files
	l.files = files
	l.recordDecl(e)
	l.addDecls(nil)
	l.files = saved
}

// unitFiles returns the file table of unit u, read once; false when its
// unit DIE cannot be read.
func (z *lazyTables) unitFiles(u int) ([]*dwarf.LineFile, bool) {
	t, ok := z.files[u]
	if !ok {
		t = z.readFiles(u)
		z.files[u] = t
	}
	return t.files, t.ok
}

// fileTable is a unit's file table; ok is false when its unit DIE cannot
// be read.
type fileTable struct {
	files []*dwarf.LineFile
	ok    bool
}

func (z *lazyTables) readFiles(u int) fileTable {
	r := z.d.Reader()
	r.Seek(z.units[u].entry)
	cu, err := r.Next()
	if err != nil || cu == nil {
		return fileTable{}
	}
	t := fileTable{ok: true}
	if lr, err := dwarfread.LineReader(z.d, cu, z.lineSection()); err == nil && lr != nil {
		t.files = lr.Files()
	}
	return t
}

// funcTable builds the function ranges of the subprograms of unit p,
// joined from subroutine index first on, adding to the functions of the
// same name in other units.
func (z *lazyTables) funcTable(unit int, p *loader, first int) funcTable {
	l := z.l
	n := 0
	for _, rs := range p.topRanges {
		n += len(rs)
	}
	ranges := make([]FuncRange, 0, n) // one allocation for the unit's ranges
	for k, idx := range p.topLevel {
		name := l.subs[first+int(idx)].name
		if name == "" {
			continue
		}
		fn := z.byName[name]
		if fn == nil {
			fn = &Function{Name: name}
			z.byName[name] = fn
		}
		for _, r := range p.topRanges[k] {
			if r[1] <= r[0] || r[0] < z.base {
				continue
			}
			fn.addRange(unit, r)
			if !z.seen[r[0]] {
				z.seen[r[0]] = true
				ranges = append(ranges, FuncRange{Func: fn, Start: r[0], End: r[1]})
			}
		}
	}
	t := make(funcTable, len(ranges))
	for i := range ranges {
		t[i] = &ranges[i]
	}
	slices.SortFunc(t, func(a, b *FuncRange) int { return cmp.Compare(a.Start, b.Start) })
	return t
}

// addRange adds a range of unit to fn, after those of earlier units and
// of the same unit: its ranges are kept in unit order, the order of a
// pass over all units.
func (fn *Function) addRange(unit int, r [2]uint64) {
	i := sort.Search(len(fn.units), func(i int) bool { return fn.units[i] > int32(unit) })
	fn.units = slices.Insert(fn.units, i, int32(unit))
	fn.Ranges = slices.Insert(fn.Ranges, i, r)
}

// setSymbols keeps the ELF symbols for marking entries as units load.
func (z *lazyTables) setSymbols(syms []Symbol) {
	z.mu.Lock()
	defer z.mu.Unlock()
	z.syms = append(z.syms, syms...)
	slices.SortStableFunc(z.syms, func(a, b Symbol) int { return cmp.Compare(a.Addr, b.Addr) })
	count := map[string]int{}
	for _, s := range z.syms {
		count[s.Name]++
	}
	z.dups = map[string][]uint64{}
	for _, s := range z.syms {
		if count[s.Name] > 1 {
			z.dups[s.Name] = append(z.dups[s.Name], s.Addr)
		}
	}
	for i := range z.units {
		if z.units[i].loaded {
			z.markEntries(&z.units[i])
		}
	}
}

// markEntries is MarkEntries for the symbols in unit u's ranges.
func (z *lazyTables) markEntries(u *unitInfo) {
	for _, rg := range u.ranges {
		i := sort.Search(len(z.syms), func(i int) bool { return z.syms[i].Addr >= rg[0] })
		for ; i < len(z.syms) && z.syms[i].Addr < rg[1]; i++ {
			s := z.syms[i]
			if r := u.funcs.at(s.Addr); r != nil && (len(r.Func.Ranges) == 1 || r.Func.Name == CanonicalName(s.Name)) {
				r.IsEntry = true
			}
		}
	}
}

// loadDIEs is l.loadDIEs for unit u, reading it with a dieReader when
// it can (dies.go).
func (z *lazyTables) loadDIEs(l *loader, u *unitInfo, r *dwarf.Reader, cu *dwarf.Entry) error {
	if u.split == nil && cu.Children && z.dies != nil {
		if dr, ok := z.dieReader(u); ok {
			return l.loadUnitDIEs(dr, dr.ranges)
		}
	}
	return l.loadDIEs(r, cu, u.split)
}

// dieReader is newDIEReader for unit u, sharing the abbreviation tables
// read among the goroutines that read units.
func (z *lazyTables) dieReader(u *unitInfo) (*dieReader, bool) {
	z.abbrevMu.Lock()
	defer z.abbrevMu.Unlock()
	return newDIEReader(z.dies, u.start, z.abbrevs)
}

// lineSection is .debug_line when the tables read the DIEs themselves,
// else nil.
func (z *lazyTables) lineSection() []byte {
	if z.dies == nil {
		return nil
	}
	return z.dies.line
}
