package binary

import (
	"cmp"
	"debug/elf"
	"slices"
	"sort"
)

// Symbol is a function symbol of the ELF symbol table.
type Symbol struct {
	Name string
	Addr uint64
	Size uint64
}

// funcSymbols keeps the defined function symbols, sorted by address, then
// name; exact duplicates (same name and address) are kept once.
func funcSymbols(syms []elf.Symbol) []Symbol {
	var out []Symbol
	for _, s := range syms {
		t := elf.ST_TYPE(s.Info)
		if (t != elf.STT_FUNC && t != elf.STT_GNU_IFUNC) || s.Section == elf.SHN_UNDEF || s.Value == 0 {
			continue
		}
		out = append(out, Symbol{Name: s.Name, Addr: s.Value, Size: s.Size})
	}
	slices.SortFunc(out, func(a, b Symbol) int {
		return cmp.Or(cmp.Compare(a.Addr, b.Addr), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Size, b.Size))
	})
	return slices.CompactFunc(out, func(a, b Symbol) bool { return a.Name == b.Name && a.Addr == b.Addr })
}

// FuncSymbolAt returns the function symbol whose [Addr, Addr+Size) holds
// addr; of several, the one with the highest start address.
func (f *File) FuncSymbolAt(addr uint64) (Symbol, bool) {
	i := sort.Search(len(f.funcs), func(i int) bool { return f.funcs[i].Addr > addr })
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		s := f.funcs[j]
		if addr < s.Addr+s.Size {
			return s, true
		}
	}
	return Symbol{}, false
}

// PLTSymbols are the binary's PLT stubs, named `name@plt` as perf and
// objdump name them, sorted by address.
func (f *File) PLTSymbols() []Symbol { return f.plt }
