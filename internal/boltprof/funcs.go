package boltprof

import (
	"cmp"
	"debug/elf"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/binary"
)

// Func is a function as BOLT sees it: a symbol's code, a PLT stub, or the
// pseudo function BOLT makes of a PLT section's header.
type Func struct {
	Name string // BOLT's primary name: `name/N` for a local symbol
	Addr uint64
	Size uint64 // the symbol's size: the code BOLT disassembles
	// MaxSize reaches the next function or the section end: an address
	// that far belongs to the function (perf2bolt looks addresses up so).
	MaxSize uint64
	// Pseudo marks PLT stubs and headers: BOLT builds no CFG for them, and
	// a trace inside one yields no fall-through.
	Pseudo bool
}

// Funcs are a binary's functions, sorted by address.
type Funcs []*Func

// Containing returns the function whose [Addr, Addr+MaxSize) holds addr.
func (fs Funcs) Containing(addr uint64) *Func {
	i := sort.Search(len(fs), func(i int) bool { return fs[i].Addr > addr })
	if i == 0 {
		return nil
	}
	if f := fs[i-1]; addr < f.Addr+f.MaxSize {
		return f
	}
	return nil
}

// FuncsOf lists the functions of f as BOLT discovers them.
func FuncsOf(f *binary.File) (Funcs, error) {
	syms, err := f.ELF().Symbols()
	if err != nil {
		return nil, err
	}
	ef := f.ELF()
	fs := symbolFuncs(ef, syms)
	fs = append(fs, pltFuncs(ef, f.PLTSymbols())...)
	slices.SortStableFunc(fs, func(a, b *Func) int { return cmp.Compare(a.Addr, b.Addr) })
	fs = slices.CompactFunc(fs, func(a, b *Func) bool { return a.Addr == b.Addr })
	setMaxSizes(ef, fs)
	return fs, nil
}

// symbolFuncs makes a function of each defined function symbol of an
// executable section, named as BOLT names it; of several symbols at one
// address, the first in BOLT's order names the function.
func symbolFuncs(ef *elf.File, syms []elf.Symbol) Funcs {
	var fs Funcs
	names := boltNames(syms)
	for _, i := range boltOrder(syms) {
		s := syms[i]
		if !isFuncSymbol(ef, s) {
			continue
		}
		fs = append(fs, &Func{Name: names[i], Addr: s.Value, Size: s.Size})
	}
	return fs
}

func isFuncSymbol(ef *elf.File, s elf.Symbol) bool {
	t := elf.ST_TYPE(s.Info)
	if (t != elf.STT_FUNC && t != elf.STT_GNU_IFUNC) || s.Value == 0 || !namedSymbol(s) {
		return false
	}
	sec := ef.Sections[s.Section]
	return sec.Flags&elf.SHF_EXECINSTR != 0
}

// namedSymbol reports whether BOLT gives s a name: a defined symbol of a
// section, other than a section or file symbol.
func namedSymbol(s elf.Symbol) bool {
	t := elf.ST_TYPE(s.Info)
	return s.Name != "" && s.Section != elf.SHN_UNDEF && s.Section < elf.SHN_LORESERVE &&
		t != elf.STT_SECTION && t != elf.STT_FILE
}

// boltOrder is the order BOLT processes symbols in: by address, function
// symbols first among symbols of one address, else in symbol-table order.
func boltOrder(syms []elf.Symbol) []int {
	idx := make([]int, len(syms))
	for i := range idx {
		idx[i] = i
	}
	isFunc := func(i int) int {
		if elf.ST_TYPE(syms[i].Info) == elf.STT_FUNC {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(syms[a].Value, syms[b].Value), cmp.Compare(isFunc(a), isFunc(b)))
	})
	return idx
}

// boltNames names each symbol as BOLT does: a global by its name, a local
// `name/N`, N counting the local symbols of that name from 1 in BOLT's
// order (NameResolver::uniquify).
func boltNames(syms []elf.Symbol) []string {
	names := make([]string, len(syms))
	seen := map[string]int{}
	for _, i := range boltOrder(syms) {
		s := syms[i]
		if !namedSymbol(s) {
			continue
		}
		if elf.ST_BIND(s.Info) != elf.STB_LOCAL {
			names[i] = s.Name
			continue
		}
		seen[s.Name]++
		names[i] = s.Name + "/" + strconv.Itoa(seen[s.Name])
	}
	return names
}

// pltFuncs makes a pseudo function of each PLT stub (`name@PLT`) and of
// each PLT section's header before its first stub (`__BOLT_PSEUDO_.plt`).
func pltFuncs(ef *elf.File, stubs []binary.Symbol) Funcs {
	var fs Funcs
	for _, s := range stubs {
		name := strings.TrimSuffix(s.Name, "@plt") + "@PLT"
		fs = append(fs, &Func{Name: name, Addr: s.Addr, Size: s.Size, Pseudo: true})
	}
	for _, sec := range ef.Sections {
		if !strings.HasPrefix(sec.Name, ".plt") || sec.Flags&elf.SHF_EXECINSTR == 0 {
			continue
		}
		first := sec.Addr + sec.Size
		for _, s := range stubs {
			if s.Addr >= sec.Addr && s.Addr < first {
				first = s.Addr
			}
		}
		if first > sec.Addr {
			fs = append(fs, &Func{Name: "__BOLT_PSEUDO_" + sec.Name, Addr: sec.Addr, Size: first - sec.Addr, Pseudo: true})
		}
	}
	return fs
}

// setMaxSizes lets each function reach the next one or the end of its
// section, whichever comes first; a function symbol of size 0 gets that
// size too.
func setMaxSizes(ef *elf.File, fs Funcs) {
	for i, f := range fs {
		limit := sectionEnd(ef, f.Addr)
		if i+1 < len(fs) && fs[i+1].Addr < limit {
			limit = fs[i+1].Addr
		}
		f.MaxSize = max(limit-f.Addr, f.Size)
		if f.Size == 0 {
			f.Size = f.MaxSize
		}
	}
}

func sectionEnd(ef *elf.File, addr uint64) uint64 {
	for _, s := range ef.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && addr >= s.Addr && addr < s.Addr+s.Size {
			return s.Addr + s.Size
		}
	}
	return addr
}
