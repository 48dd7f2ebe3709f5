package symbolize

import (
	"sort"
	"sync"
)

// AddSymtabFunctions adds a function for each ELF function symbol with a
// size whose start address no DWARF function holds, as llvm-profgen 22's
// --load-function-from-symbol does for pseudo-probe binaries whose DWARF
// is incomplete (an object built without -g, or subprograms without a
// name): the function is the symbol's range, entered at its start, named
// by the symbol; symbols of one name make one function. Of several symbols
// at one address the first (syms are sorted by address, then name) claims
// it. Whether DWARF holds a symbol's start is asked when a lookup first
// meets it, so that a lazily loaded table loads no unit for it before.
func (t *Table) AddSymtabFunctions(syms []Symbol) {
	byName := map[string]*Function{}
	claimed := map[uint64]bool{}
	for _, s := range syms {
		if s.Size == 0 || claimed[s.Addr] {
			continue
		}
		claimed[s.Addr] = true
		fn := byName[s.Name]
		if fn == nil {
			fn = &Function{Name: s.Name, FromSymtab: true}
			byName[s.Name] = fn
		}
		r := [2]uint64{s.Addr, s.Addr + s.Size}
		fn.Ranges = append(fn.Ranges, r)
		t.recovered = append(t.recovered, &FuncRange{Func: fn, Start: r[0], End: r[1], IsEntry: true})
	}
	sort.Slice(t.recovered, func(i, j int) bool { return t.recovered[i].Start < t.recovered[j].Start })
	t.dwarfHeld = &heldStarts{held: map[uint64]bool{}}
}

// recoveredAt returns the recovered function range r that find gives,
// unless DWARF holds its start.
func (t *Table) recoveredAt(addr uint64, find func(funcTable, uint64) *FuncRange) *FuncRange {
	r := find(t.recovered, addr)
	if r == nil || t.dwarfHeld.holds(r.Start, func() bool { return t.funcsAt(r.Start).at(r.Start) != nil }) {
		return nil
	}
	return r
}

// recoveredFuncs returns the recovered function ranges DWARF does not
// hold.
func (t *Table) recoveredFuncs() funcTable {
	var out funcTable
	for _, r := range t.recovered {
		if t.recoveredAt(r.Start, funcTable.startingAt) == r {
			out = append(out, r)
		}
	}
	return out
}

// heldStarts remembers which symbol starts DWARF holds.
type heldStarts struct {
	mu   sync.Mutex
	held map[uint64]bool
}

// holds answers for addr from memory, or asks check once.
func (h *heldStarts) holds(addr uint64, check func() bool) bool {
	h.mu.Lock()
	v, ok := h.held[addr]
	h.mu.Unlock()
	if !ok {
		v = check()
		h.mu.Lock()
		h.held[addr] = v
		h.mu.Unlock()
	}
	return v
}
