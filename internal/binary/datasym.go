package binary

import (
	"cmp"
	"debug/elf"
	"slices"
	"sort"
)

// DataSymbolAt returns the data symbol (STT_OBJECT, STT_COMMON or STT_TLS,
// defined, with a size) whose [Addr, Addr+Size) holds addr, of .symtab or
// of .dynsym without one; of several, the one starting last. Names are as
// the symbol table spells them (with a "@VERSION" where the linker wrote
// one), as LLVM's symbolizer names data.
func (f *File) DataSymbolAt(addr uint64) (Symbol, bool) {
	f.dataOnce.Do(f.loadDataSymbols)
	i := sort.Search(len(f.data), func(i int) bool { return f.data[i].Addr > addr })
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		if s := f.data[j]; addr < s.Addr+s.Size {
			return s, true
		}
	}
	return Symbol{}, false
}

func (f *File) loadDataSymbols() {
	syms, _ := f.elf.Symbols()
	if len(syms) == 0 {
		syms, _ = f.elf.DynamicSymbols()
	}
	for _, s := range syms {
		switch elf.ST_TYPE(s.Info) {
		case elf.STT_OBJECT, elf.STT_COMMON, elf.STT_TLS:
			if s.Section != elf.SHN_UNDEF && s.Size > 0 {
				f.data = append(f.data, Symbol{Name: s.Name, Addr: s.Value, Size: s.Size})
			}
		}
	}
	slices.SortStableFunc(f.data, func(a, b Symbol) int { return cmp.Compare(a.Addr, b.Addr) })
}

// NonTextAddress maps a file offset of the file to the virtual address of
// a non-executable PT_LOAD segment holding it (in its file bytes), as
// llvm-profgen 22 places data addresses: false when none does.
func (f *File) NonTextAddress(offset uint64) (uint64, bool) {
	for _, p := range f.elf.Progs {
		if p.Type != elf.PT_LOAD || p.Flags&elf.PF_X != 0 {
			continue
		}
		if p.Off <= offset && offset < p.Off+p.Filesz {
			return p.Vaddr + offset - p.Off, true
		}
	}
	return 0, false
}
