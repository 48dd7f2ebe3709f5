package stackpipe

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"sort"

	"github.com/profgen/profgen/internal/stackgen"
)

// dwarfSymbolizer is a small DWARF inline-stack symbolizer that stands in
// for internal/symbolize until it lands on main: subprogram and inlined
// subroutine ranges, decl lines and files, and the line table.
type dwarfSymbolizer struct {
	subs  []dsub   // subprograms and inlined subroutines
	tops  []drange // ranges of top-level subprograms, sorted
	lines []dline  // line rows of all units, sorted by address
	syms  []elfSym // function symbols, for code without DWARF
}

type elfSym struct {
	start, end uint64
	name       string
}

type dsub struct {
	name, file string
	declLine   uint32
	callLine   uint32
	callDiscr  uint32
	callFile   string
	parent     int32
	inlined    bool
	ranges     [][2]uint64
	children   []int32
}

type drange struct {
	start, end uint64
	sub        int32
}

type dline struct {
	addr        uint64
	line, discr uint32
	end         bool
	file        string
}

// declInfo is what a DIE says about a function, for origin lookups.
type declInfo struct {
	name, linkage, file string
	line                uint32
	origin              dwarf.Offset
}

func newSymbolizer(f *elf.File) (stackgen.Symbolizer, error) {
	s := &dwarfSymbolizer{syms: functionSymbols(f)}
	if !hasDWARF(f) { // stripped: names from the symbol table only
		return s, nil
	}
	d, err := f.DWARF()
	if err != nil {
		return nil, fmt.Errorf("reading DWARF: %w", err)
	}
	decls := map[dwarf.Offset]*declInfo{}
	subOff := map[int32]dwarf.Offset{}
	if err := s.load(d, decls, subOff); err != nil {
		return nil, fmt.Errorf("reading DWARF: %w", err)
	}
	s.resolve(decls, subOff)
	sort.Slice(s.tops, func(i, j int) bool { return s.tops[i].start < s.tops[j].start })
	sort.SliceStable(s.lines, func(i, j int) bool { return s.lines[i].addr < s.lines[j].addr })
	return s, nil
}

func (s *dwarfSymbolizer) load(d *dwarf.Data, decls map[dwarf.Offset]*declInfo, subOff map[int32]dwarf.Offset) error {
	r := d.Reader()
	var files []*dwarf.LineFile
	var stack []int32 // enclosing subroutines, -1 for other DIEs
	for {
		e, err := r.Next()
		if err != nil {
			return err
		}
		if e == nil {
			return nil
		}
		if e.Tag == 0 {
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if e.Tag == dwarf.TagCompileUnit {
			stack = stack[:0]
			files = s.loadLines(d, e)
		}
		decls[e.Offset] = readDecl(e, files)
		idx := int32(-1)
		if e.Tag == dwarf.TagSubprogram || e.Tag == dwarf.TagInlinedSubroutine {
			idx = s.addSub(d, e, files, parentOf(stack))
			if idx >= 0 {
				subOff[idx] = e.Offset
			}
		}
		if e.Children {
			if idx < 0 {
				idx = parentOf(stack)
			}
			stack = append(stack, idx)
		}
	}
}

func parentOf(stack []int32) int32 {
	if len(stack) == 0 {
		return -1
	}
	return stack[len(stack)-1]
}

func readDecl(e *dwarf.Entry, files []*dwarf.LineFile) *declInfo {
	di := &declInfo{}
	di.name, _ = e.Val(dwarf.AttrName).(string)
	di.linkage, _ = e.Val(dwarf.AttrLinkageName).(string)
	if l, ok := e.Val(dwarf.AttrDeclLine).(int64); ok {
		di.line = uint32(l)
	}
	if fi, ok := e.Val(dwarf.AttrDeclFile).(int64); ok && int(fi) < len(files) && files[fi] != nil {
		di.file = files[fi].Name
	}
	if o, ok := e.Val(dwarf.AttrAbstractOrigin).(dwarf.Offset); ok {
		di.origin = o
	} else if o, ok := e.Val(dwarf.AttrSpecification).(dwarf.Offset); ok {
		di.origin = o
	}
	return di
}

func (s *dwarfSymbolizer) addSub(d *dwarf.Data, e *dwarf.Entry, files []*dwarf.LineFile, parent int32) int32 {
	rs, err := d.Ranges(e)
	if err != nil || len(rs) == 0 {
		return -1
	}
	sub := dsub{parent: parent, inlined: e.Tag == dwarf.TagInlinedSubroutine, ranges: rs}
	if l, ok := e.Val(dwarf.AttrCallLine).(int64); ok {
		sub.callLine = uint32(l)
	}
	if fi, ok := e.Val(dwarf.AttrCallFile).(int64); ok && int(fi) < len(files) && files[fi] != nil {
		sub.callFile = files[fi].Name
	}
	if dc, ok := e.Val(attrGNUDiscriminator).(int64); ok {
		sub.callDiscr = uint32(dc)
	}
	if !sub.inlined {
		sub.parent = -1 // nested subprograms (Go closures) stand alone
	}
	idx := int32(len(s.subs))
	s.subs = append(s.subs, sub)
	if sub.parent >= 0 {
		s.subs[sub.parent].children = append(s.subs[sub.parent].children, idx)
	} else {
		for _, r := range rs {
			s.tops = append(s.tops, drange{r[0], r[1], idx})
		}
	}
	return idx
}

func (s *dwarfSymbolizer) loadLines(d *dwarf.Data, cu *dwarf.Entry) []*dwarf.LineFile {
	lr, err := d.LineReader(cu)
	if err != nil || lr == nil {
		return nil
	}
	var le dwarf.LineEntry
	for lr.Next(&le) == nil {
		var file string
		if le.File != nil {
			file = le.File.Name
		}
		s.lines = append(s.lines, dline{le.Address, uint32(le.Line), uint32(le.Discriminator), le.EndSequence, file})
	}
	return lr.Files()
}

// resolve names each subroutine through its abstract origin chain.
func (s *dwarfSymbolizer) resolve(decls map[dwarf.Offset]*declInfo, subOff map[int32]dwarf.Offset) {
	for i := range s.subs {
		var name, linkage, file string
		var line uint32
		for off, n := subOff[int32(i)], 0; off != 0 && n < 8; n++ {
			di := decls[off]
			if di == nil {
				break
			}
			name, linkage = first(name, di.name), first(linkage, di.linkage)
			file = first(file, di.file)
			if line == 0 {
				line = di.line
			}
			off = di.origin
		}
		s.subs[i].name, s.subs[i].file, s.subs[i].declLine = first(linkage, name), file, line
	}
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Frames returns the inline stack at addr, outermost first.
func (s *dwarfSymbolizer) Frames(addr uint64) []stackgen.Frame {
	top := s.topAt(addr)
	if top < 0 {
		return s.symbolFrame(addr)
	}
	leaf := s.innermost(top, addr)
	row := s.lineAt(addr)
	var fs []stackgen.Frame
	line, discr, file := row.line, baseDiscriminator(row.discr), row.file
	for i := leaf; i >= 0; i = s.subs[i].parent {
		sub := &s.subs[i]
		// Go's abstract functions have no DW_AT_decl_file: take the file
		// of the code (line row, or the call site in the inlinee).
		fs = append(fs, stackgen.Frame{Func: sub.name, File: first(sub.file, file), Line: line, StartLine: sub.declLine, Discriminator: discr})
		line, discr, file = sub.callLine, baseDiscriminator(sub.callDiscr), sub.callFile
		if !sub.inlined {
			break
		}
	}
	for i, j := 0, len(fs)-1; i < j; i, j = i+1, j-1 {
		fs[i], fs[j] = fs[j], fs[i]
	}
	if len(fs) == 0 || fs[0].Func == "" {
		return nil
	}
	return fs
}

func (s *dwarfSymbolizer) topAt(addr uint64) int32 {
	i := sort.Search(len(s.tops), func(i int) bool { return s.tops[i].start > addr }) - 1
	if i >= 0 && addr < s.tops[i].end {
		return s.tops[i].sub
	}
	return -1
}

// innermost descends from sub into the inlined subroutine covering addr.
func (s *dwarfSymbolizer) innermost(sub int32, addr uint64) int32 {
	for {
		next := int32(-1)
		for _, c := range s.subs[sub].children {
			if covers(s.subs[c].ranges, addr) {
				next = c
				break
			}
		}
		if next < 0 {
			return sub
		}
		sub = next
	}
}

func covers(rs [][2]uint64, addr uint64) bool {
	for _, r := range rs {
		if addr >= r[0] && addr < r[1] {
			return true
		}
	}
	return false
}

func (s *dwarfSymbolizer) lineAt(addr uint64) dline {
	i := sort.Search(len(s.lines), func(i int) bool { return s.lines[i].addr > addr }) - 1
	if i < 0 || s.lines[i].end {
		return dline{}
	}
	return s.lines[i]
}

// baseDiscriminator decodes the first component of LLVM's discriminator
// encoding.
func baseDiscriminator(d uint32) uint32 {
	if d&1 != 0 {
		return 0
	}
	d >>= 1
	if d&0x40 != 0 {
		return (d>>1)&0xfe0 | d&0x1f
	}
	return d & 0x1f
}

// attrGNUDiscriminator is DW_AT_GNU_discriminator, the discriminator of an
// inlined call site.
const attrGNUDiscriminator dwarf.Attr = 0x2136

// symbolFrame names code without DWARF by its ELF symbol, as LLVM's
// symbolizer does.
func (s *dwarfSymbolizer) symbolFrame(addr uint64) []stackgen.Frame {
	i := sort.Search(len(s.syms), func(i int) bool { return s.syms[i].start > addr }) - 1
	if i < 0 || addr >= s.syms[i].end {
		return nil
	}
	return []stackgen.Frame{{Func: s.syms[i].name}}
}

func hasDWARF(f *elf.File) bool {
	return f.Section(".debug_info") != nil || f.Section(".zdebug_info") != nil
}

func functionSymbols(f *elf.File) []elfSym {
	syms, _ := f.Symbols()
	if len(syms) == 0 {
		syms, _ = f.DynamicSymbols()
	}
	var out []elfSym
	for _, sy := range syms {
		if elf.ST_TYPE(sy.Info) == elf.STT_FUNC && sy.Value != 0 && sy.Name != "" {
			out = append(out, elfSym{sy.Value, sy.Value + sy.Size, sy.Name})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].start < out[j].start })
	for i := range out { // a symbol without size reaches the next one
		if out[i].end == out[i].start && i+1 < len(out) {
			out[i].end = out[i+1].start
		}
	}
	return out
}
