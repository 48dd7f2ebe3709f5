package symbolize

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// Names from the ELF symbol table. gcc writes no DW_AT_linkage_name for a
// C++ function whose mangled name involves an anonymous namespace (a
// method of a class declared in one, a template instantiated with such a
// class), only DW_AT_name: LLVM's symbolizer, and so llvm-profgen, names
// every `eval` of every such class `eval`, one function. The mangled name
// (`_ZNK12_GLOBAL__N_13Num4evalERNS_3EnvE`) is the name of the local ELF
// symbol at the function's entry, and it is the name GCC's AutoFDO reader
// looks a function up by first (DECL_ASSEMBLER_NAME, for an out-of-line
// function and for an inlined callee alike; the DWARF name only after it)
// and the name it resolves call targets by. So such a subroutine takes the
// name of the symbol at the start of one of its ranges, when that symbol
// demangles to a name ending in "::" and the DWARF name (the function
// then has a namespace or class around it, which the DWARF says with the
// DIEs around its declaration); its inlined copies take the same name,
// found through the DIE the name came from (the declaration their
// abstract origins and specifications lead to). A function with no
// out-of-line copy, or whose copies are several symbols (a constructor
// whose complete and base versions differ), keeps its DWARF name where
// inlined: GCC finds an inlined callee by that name too. Clang writes
// linkage names everywhere, and C functions have no scope, so their names
// do not change.

// unlinkedSub is a subroutine named without a linkage name, and the DIE
// its name came from.
type unlinkedSub struct {
	sub  int32
	decl dieKey
}

// nameFromSymbols renames the subroutines resolved without a linkage
// name since the last call (l.unlinked) after the symbols at their
// entries. top and ranges are the top-level subprograms of those
// subroutines (in index order) and their address ranges, their indexes
// counted from subroutine first.
func (l *loader) nameFromSymbols(top []int32, ranges [][][2]uint64, first int) {
	unlinked := l.unlinked
	l.unlinked = nil
	if len(l.symbols) == 0 {
		return
	}
	var byDecl map[dieKey]string // "": copies of several names
	for j, u := range unlinked {
		s := &l.subs[u.sub]
		k, ok := slices.BinarySearch(top, u.sub-int32(first))
		if s.inlined || !ok {
			continue
		}
		name := mangledNameAt(l.symbols, ranges[k], s.name)
		if name == "" {
			continue
		}
		s.name, unlinked[j].decl = name, 0 // 0: named
		if byDecl == nil {
			byDecl = map[dieKey]string{}
		}
		if prev, seen := byDecl[u.decl]; seen && prev != name {
			name = ""
		}
		byDecl[u.decl] = name
	}
	for _, u := range unlinked {
		if name := byDecl[u.decl]; name != "" && u.decl != 0 {
			l.subs[u.sub].name = name
		}
	}
}

// mangledNameAt returns the mangled name, cut at its first "." (the
// clone suffixes .cold, .part.0, .isra.0 that DWARF names by the function
// they were cut from), of the symbol at the start of the first of ranges
// that has one whose name demangles to a name ending in "::" and
// dwarfName; "" when none has. Of several such symbols at one address,
// the name that sorts last is taken: for gcc's constructors and
// destructors that is the base-object version (C2, D2), the one compiled,
// of which the complete-object one (C1, D1) is an alias.
func mangledNameAt(syms []Symbol, ranges [][2]uint64, dwarfName string) string {
	for _, r := range ranges {
		best := ""
		for _, s := range symbolsAt(syms, r[0]) {
			if name, _, _ := strings.Cut(s.Name, "."); name > best && demanglesTo(name, dwarfName) {
				best = name
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// symbolsAt returns the symbols at addr, of syms sorted by address.
func symbolsAt(syms []Symbol, addr uint64) []Symbol {
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Addr >= addr })
	j := i
	for j < len(syms) && syms[j].Addr == addr {
		j++
	}
	return syms[i:j]
}

// demanglesTo reports whether the C++ name mangled demangles, without
// parameters, to a name ending in "::" and name.
func demanglesTo(mangled, name string) bool {
	if !strings.HasPrefix(mangled, "_Z") {
		return false
	}
	d, err := demangle.ToString(mangled, demangle.NoParams)
	return err == nil && strings.HasSuffix(d, "::"+name)
}

// symbolsByAddress returns syms sorted by address: syms itself when they
// are, else a sorted copy.
func symbolsByAddress(syms []Symbol) []Symbol {
	byAddr := func(a, b Symbol) int { return cmp.Compare(a.Addr, b.Addr) }
	if slices.IsSortedFunc(syms, byAddr) {
		return syms
	}
	syms = slices.Clone(syms)
	slices.SortStableFunc(syms, byAddr)
	return syms
}
