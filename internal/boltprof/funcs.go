package boltprof

import (
	"debug/elf"
	"sort"
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
	sec    *elf.Section // the section it lies in
}

// contains reports whether addr is in [Addr, Addr+Size).
func (f *Func) contains(addr uint64) bool { return addr >= f.Addr && addr < f.Addr+f.Size }

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

// FuncsOf lists the functions of f as BOLT discovers them: from the
// symbol table (discover.go), then the PLT stubs, each reaching up to the
// next function or symbol.
func FuncsOf(f *binary.File) (Funcs, error) {
	syms, err := f.ELF().Symbols()
	if err != nil {
		return nil, err
	}
	ef := f.ELF()
	d := discoverSymbols(ef, syms)
	d.addPLT(ef, f.PLTSymbols())
	fs := d.sorted()
	d.setMaxSizes(fs)
	return fs, nil
}

// pltSections are the x86-64 PLT sections BOLT disassembles.
var pltSections = []string{".plt", ".plt.sec", ".plt.got"}

// addPLT makes a pseudo function of each PLT stub (`name@PLT`) with no
// function at its address yet, and of each PLT section's start when no
// stub is there (`__BOLT_PSEUDO_.plt`), as BOLT's disassemblePLT does;
// their sizes come from the next function (setMaxSizes).
func (d *discovery) addPLT(ef *elf.File, stubs []binary.Symbol) {
	for _, s := range stubs {
		if sec := sectionAt(ef, s.Addr); sec != nil && d.at[s.Addr] == nil {
			name := strings.TrimSuffix(s.Name, "@plt") + "@PLT"
			d.add(&Func{Name: name, Addr: s.Addr, Pseudo: true, sec: sec})
		}
	}
	for _, name := range pltSections {
		sec := ef.Section(name)
		if sec == nil || sec.Flags&elf.SHF_ALLOC == 0 {
			continue
		}
		if f := d.at[sec.Addr]; f != nil {
			f.Pseudo = true
			continue
		}
		d.add(&Func{Name: "__BOLT_PSEUDO_" + name, Addr: sec.Addr, Pseudo: true, sec: sec})
	}
}

// sectionAt is the allocated section holding addr, or nil.
func sectionAt(ef *elf.File, addr uint64) *elf.Section {
	for _, s := range ef.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && addr >= s.Addr && addr < s.Addr+s.Size {
			return s
		}
	}
	return nil
}
