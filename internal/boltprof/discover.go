package boltprof

import (
	"cmp"
	"debug/elf"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// BOLT's functions come from its walk over the symbol table
// (RewriteInstance::discoverFileObjects, LLVM 22), followed here:
//   - every symbol of an allocated section counts, not only function
//     symbols: sorted by address (at one address function symbols first,
//     section symbols last), each gets BOLT's unique name (a local one
//     `name/N`, a section symbol its section's name), and each in an
//     executable section starts a function unless it lies inside the
//     previous one: a section symbol, an object or an untyped label in
//     code is a function to BOLT;
//   - a function reaches up to the next function or the next symbol that
//     cannot lie inside it (adjustFunctionBoundaries; untyped local labels
//     can), whichever comes first, or its section's end; a function of
//     size 0 takes that size.
//
// Not followed: functions BOLT makes of .eh_frame entries no symbol
// covers (`__BOLT_FDE_FUNCat<address>`), and sizes it takes from them.

// discovery is the state of BOLT's symbol walk.
type discovery struct {
	ef *elf.File
	at map[uint64]*Func // functions by address
	// refs are the symbols in memory, by address: what bounds a
	// function (BOLT's FileSymRefs).
	refs  []memSymbol
	seen  map[string]int // local names given so far (NameResolver)
	anons int            // nameless symbols so far
}

// memSymbol is a symbol BOLT places in memory; sec is nil for an absolute
// symbol.
type memSymbol struct {
	elf.Symbol
	sec *elf.Section
}

// discoverSymbols walks the symbols as BOLT does and makes its functions.
func discoverSymbols(ef *elf.File, syms []elf.Symbol) *discovery {
	d := &discovery{ef: ef, at: map[uint64]*Func{}, seen: map[string]int{}}
	var prev *Func
	for _, s := range memorySymbols(ef, syms) {
		prev = d.visit(s, prev)
	}
	return d
}

// memorySymbols are the symbols of allocated sections (and absolute
// ones) that lie inside their section, in BOLT's order.
func memorySymbols(ef *elf.File, syms []elf.Symbol) []memSymbol {
	var out []memSymbol
	for _, s := range syms {
		if m, ok := inMemory(ef, s); ok && !isMarker(ef, s) {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b memSymbol) int {
		return cmp.Or(cmp.Compare(a.Value, b.Value), cmp.Compare(typeRank(a), typeRank(b)))
	})
	return out
}

// inMemory places s: false for file symbols, undefined ones, those of
// sections not loaded, and those reaching past their section's end.
func inMemory(ef *elf.File, s elf.Symbol) (memSymbol, bool) {
	switch {
	case elf.ST_TYPE(s.Info) == elf.STT_FILE || s.Section == elf.SHN_UNDEF:
		return memSymbol{}, false
	case s.Section == elf.SHN_ABS:
		return memSymbol{Symbol: s}, true
	case s.Section >= elf.SHN_LORESERVE || int(s.Section) >= len(ef.Sections):
		return memSymbol{}, false
	}
	sec := ef.Sections[s.Section]
	if sec.Flags&elf.SHF_ALLOC == 0 || s.Value < sec.Addr || s.Value+s.Size > sec.Addr+sec.Size {
		return memSymbol{}, false
	}
	return memSymbol{Symbol: s, sec: sec}, true
}

// isMarker reports an AArch64 or RISC-V mapping symbol ($x: code, $d:
// data), which BOLT leaves out of its walk.
func isMarker(ef *elf.File, s elf.Symbol) bool {
	if ef.Machine == elf.EM_X86_64 || s.Size != 0 || elf.ST_TYPE(s.Info) != elf.STT_NOTYPE {
		return false
	}
	for _, m := range []string{"$x", "$d"} {
		if s.Name == m || strings.HasPrefix(s.Name, m+".") || (m == "$x" && ef.Machine == elf.EM_RISCV && strings.HasPrefix(s.Name, m)) {
			return true
		}
	}
	return false
}

// typeRank orders the symbols of one address: functions, others,
// sections.
func typeRank(s memSymbol) int {
	switch elf.ST_TYPE(s.Info) {
	case elf.STT_FUNC:
		return 0
	case elf.STT_SECTION:
		return 2
	}
	return 1
}

// visit handles one symbol: it is named, recorded as a bound, and makes a
// function or adds to one. It returns the function the next symbol is
// compared with.
func (d *discovery) visit(s memSymbol, prev *Func) *Func {
	if s.Value == 0 || s.Name == "__hot_start" || s.Name == "__hot_end" {
		return prev
	}
	d.refs = append(d.refs, s)
	if elf.ST_TYPE(s.Info) == elf.STT_SECTION && isPLT(s.sec) {
		return prev
	}
	name := d.uniqueName(s)
	if s.sec == nil || s.Value == s.sec.Addr+s.sec.Size || s.sec.Flags&elf.SHF_EXECINSTR == 0 {
		return prev
	}
	if prev != nil && d.insidePrevious(s, prev) {
		return prev
	}
	if f := d.at[s.Value]; f != nil {
		f.Size = max(f.Size, s.Size)
		return f
	}
	if s.sec.Size == 0 {
		return prev
	}
	f := &Func{Name: name, Addr: s.Value, Size: s.Size, sec: s.sec}
	d.add(f)
	return f
}

// insidePrevious reports a symbol that names a place in the previous
// function rather than a function of its own. A function symbol there is
// another entry of it: BOLT drops it from the bounds unless it could lie
// inside a function.
func (d *discovery) insidePrevious(s memSymbol, prev *Func) bool {
	if elf.ST_TYPE(s.Info) != elf.STT_FUNC && (prev.contains(s.Value) || prev.Size == 0 && validInScope(prev, s)) {
		return true
	}
	if !prev.contains(s.Value) || prev.Addr == s.Value {
		return false
	}
	if !validInScope(prev, s) {
		d.refs = d.refs[:len(d.refs)-1]
	}
	return true
}

// validInScope reports whether s may lie inside f
// (BinaryFunction::isSymbolValidInScope): in f's section, and either of
// size 0 inside f's bytes or an untyped local label.
func validInScope(f *Func, s memSymbol) bool {
	if s.Value < f.sec.Addr || s.Value >= f.sec.Addr+f.sec.Size {
		return false
	}
	if s.Size == 0 && f.contains(s.Value) {
		return true
	}
	return elf.ST_TYPE(s.Info) == elf.STT_NOTYPE && elf.ST_BIND(s.Info) == elf.STB_LOCAL
}

// uniqueName is BOLT's name of s: a global symbol's own name, a local
// one's `name/N` (N counting that name's local symbols from 1), a section
// symbol named after its section, `.L` names prefixed `PG`, nameless ones
// `ANONYMOUS.N`.
func (d *discovery) uniqueName(s memSymbol) string {
	name := s.Name
	if elf.ST_TYPE(s.Info) == elf.STT_SECTION && s.sec != nil {
		name = s.sec.Name
	}
	if strings.HasPrefix(name, ".L") {
		name = "PG" + name
	}
	switch {
	case name == "":
		d.anons++
		return "ANONYMOUS." + strconv.Itoa(d.anons-1)
	case elf.ST_BIND(s.Info) != elf.STB_LOCAL:
		return name
	}
	d.seen[name]++
	return name + "/" + strconv.Itoa(d.seen[name])
}

func isPLT(sec *elf.Section) bool {
	return sec != nil && slices.Contains(pltSections, sec.Name)
}

func (d *discovery) add(f *Func) { d.at[f.Addr] = f }

// sorted lists the functions by address.
func (d *discovery) sorted() Funcs {
	fs := make(Funcs, 0, len(d.at))
	for _, f := range d.at {
		fs = append(fs, f)
	}
	slices.SortFunc(fs, func(a, b *Func) int { return cmp.Compare(a.Addr, b.Addr) })
	return fs
}

// setMaxSizes bounds each function as adjustFunctionBoundaries does: by
// its section's end, the next function, and the first symbol after it
// that cannot lie inside it. A function of size 0 takes its bound as
// size; one reaching past its bound keeps its size.
func (d *discovery) setMaxSizes(fs Funcs) {
	for i, f := range fs {
		end := f.sec.Addr + f.sec.Size
		if i+1 < len(fs) {
			end = min(end, fs[i+1].Addr)
		}
		end = min(end, d.boundAfter(f, end))
		f.MaxSize = max(end-f.Addr, f.Size)
		if f.Size == 0 {
			f.Size = f.MaxSize
		}
	}
}

// boundAfter is the address of the first symbol after f's start that
// cannot lie inside f, or limit if none comes before it.
func (d *discovery) boundAfter(f *Func, limit uint64) uint64 {
	i := sort.Search(len(d.refs), func(i int) bool { return d.refs[i].Value > f.Addr })
	for ; i < len(d.refs) && d.refs[i].Value < limit; i++ {
		if !validInScope(f, d.refs[i]) {
			return d.refs[i].Value
		}
	}
	return limit
}
