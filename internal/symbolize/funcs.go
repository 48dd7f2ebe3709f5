package symbolize

import (
	"cmp"
	"slices"
	"sort"

	"github.com/profgen/profgen/internal/sampleprof"
)

// Function is a top-level function as llvm-profgen groups DWARF
// subprograms: by name, with all the ranges of all subprograms of that name.
type Function struct {
	Name   string
	Ranges [][2]uint64 // [start, end)
	// FromSymtab marks a function no DWARF subprogram describes, recovered
	// from an ELF function symbol (AddSymtabFunctions).
	FromSymtab bool
	units      []int32 // lazily loaded tables: the unit of each range
}

// FuncRange is one address range of a Function.
type FuncRange struct {
	Func       *Function
	Start, End uint64 // [Start, End)
	// IsEntry tells that Start is where the function is entered: the
	// function has one range, or an ELF symbol of the function's name is
	// in this range.
	IsEntry bool
}

// funcTable holds function ranges by start address; the first subprogram
// to claim a start address keeps it.
type funcTable []*FuncRange

func newFuncTable(l *loader, preferredBase uint64) funcTable {
	byName := map[string]*Function{}
	var t funcTable
	seen := map[uint64]bool{}
	for k, idx := range l.topLevel {
		name := l.subs[idx].name
		if name == "" {
			continue
		}
		fn := byName[name]
		if fn == nil {
			fn = &Function{Name: name}
			byName[name] = fn
		}
		for _, r := range l.topRanges[k] {
			if r[1] <= r[0] || r[0] < preferredBase {
				continue
			}
			fn.Ranges = append(fn.Ranges, r)
			if !seen[r[0]] {
				seen[r[0]] = true
				t = append(t, &FuncRange{Func: fn, Start: r[0], End: r[1]})
			}
		}
	}
	sort.Slice(t, func(i, j int) bool { return t[i].Start < t[j].Start })
	return t
}

// FuncRangeAt returns the function range containing addr: a DWARF
// function's, else a recovered one's.
func (t *Table) FuncRangeAt(addr uint64) *FuncRange {
	if r := t.funcsAt(addr).at(addr); r != nil {
		return r
	}
	return t.recoveredAt(addr, funcTable.at)
}

// FuncRangeStartingAt returns the function range starting at addr.
func (t *Table) FuncRangeStartingAt(addr uint64) *FuncRange {
	if r := t.funcsAt(addr).startingAt(addr); r != nil {
		return r
	}
	return t.recoveredAt(addr, funcTable.startingAt)
}

// startingAt returns the range starting at addr.
func (fs funcTable) startingAt(addr uint64) *FuncRange {
	i := sort.Search(len(fs), func(i int) bool { return fs[i].Start >= addr })
	if i < len(fs) && fs[i].Start == addr {
		return fs[i]
	}
	return nil
}

// at returns the range containing addr.
func (fs funcTable) at(addr uint64) *FuncRange {
	i := sort.Search(len(fs), func(i int) bool { return fs[i].Start > addr })
	if i == 0 || addr >= fs[i-1].End {
		return nil
	}
	return fs[i-1]
}

// Functions returns every function with code, in the order of its first
// range's address. A lazily loaded table loads every unit for it.
func (t *Table) Functions() []*Function {
	fs := t.funcs
	if t.lazy != nil {
		fs = t.lazy.allFuncs()
	}
	var out []*Function
	seen := map[*Function]bool{}
	for _, r := range slices.Concat(fs, t.recoveredFuncs()) {
		if !seen[r.Func] {
			seen[r.Func] = true
			out = append(out, r.Func)
		}
	}
	slices.SortStableFunc(out, func(a, b *Function) int { return cmp.Compare(a.Ranges[0][0], b.Ranges[0][0]) })
	return out
}

// funcsAt returns the function ranges that may hold addr: all of them, or
// those of the unit holding addr when the table loads lazily.
func (t *Table) funcsAt(addr uint64) funcTable {
	if t.lazy == nil {
		return t.funcs
	}
	u := t.lazy.unitAt(addr)
	if u == nil {
		return nil
	}
	return u.funcs
}

// Symbol is a code symbol of the profiled binary.
type Symbol struct {
	Addr uint64
	Name string
	Size uint64
}

// MarkEntries sets IsEntry on function ranges from the code symbols of the
// profiled binary, as llvm-profgen does while disassembling each symbol.
func (t *Table) MarkEntries(syms []Symbol) {
	if t.lazy != nil {
		t.lazy.setSymbols(syms)
		return
	}
	for _, s := range syms {
		r := t.FuncRangeAt(s.Addr)
		if r == nil {
			continue
		}
		if len(r.Func.Ranges) == 1 || r.Func.Name == CanonicalName(s.Name) {
			r.IsEntry = true
		}
	}
}

// CanonicalName strips the compiler suffixes LLVM drops when matching
// profiles to functions: sampleprof.CanonicalName.
func CanonicalName(name string) string { return sampleprof.CanonicalName(name) }
