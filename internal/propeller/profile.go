package propeller

import (
	"errors"
	"runtime"
	"slices"
	"sync"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/bbaddrmap"
)

// Profile is what the two files say.
type Profile struct {
	// Funcs are the hot functions, in the order of the ld profile.
	Funcs []Func
	// Ambiguous counts the hot functions left out because another
	// function has one of their names (static functions of two files)
	// and no compile unit tells them apart: clang would take the profile
	// of one for both.
	Ambiguous int
}

// Func is the layout of one function.
type Func struct {
	Names []string // the first names it, the others are aliases
	// Module is the name of its compile unit, given for a function whose
	// name is another's too (the cc profile's m line, M= in v0).
	Module string
	// Clusters are block IDs in layout order; the first holds the entry
	// block first. Blocks in none go to the function's .cold part.
	Clusters [][]uint32
	// Cold reports whether some block is in no cluster.
	Cold bool
	// Blocks are the counts of the clustered blocks and of their
	// outgoing edges (the cc profile's g lines), the entry first, then in
	// address order.
	Blocks []BlockCount
}

// BlockCount is a block's count and those of its edges.
type BlockCount struct {
	ID    uint32
	Count uint64
	Succs []EdgeCount
}

// EdgeCount is the count of an edge to block ID.
type EdgeCount struct {
	ID    uint32
	Count uint64
}

// ErrNoHotFunction is the error of counters that fall in no block of the
// map.
var ErrNoHotFunction = errors.New("no sampled address is in a block of " + bbaddrmap.Section)

// Build computes the profile of a binary from its map, its function
// symbols and its LBR counters (at the binary's addresses). module, when
// not nil, names the compile unit of the code at an address (DWARF's
// DW_AT_name, as clang matches the cc profile's m lines): a function whose
// name another function has too is kept when its unit tells it apart.
func Build(funcs []bbaddrmap.Func, syms []binary.Symbol, c *aggregate.Counters, module func(addr uint64) string) (*Profile, error) {
	names, ambiguous := symbolNames(syms)
	p := newProgram(funcs, func(addr uint64) []string { return names[addr] })
	p.addCounts(c)
	prof := &Profile{}
	var hot []int
	mods := map[int]string{}
	seen := map[[2]string]bool{}
	for i, f := range p.funcs {
		if !f.hot() {
			continue
		}
		if slices.ContainsFunc(f.names, func(n string) bool { return ambiguous[n] }) {
			m := moduleOf(module, f)
			if m == "" || seen[[2]string{f.names[0], m}] {
				prof.Ambiguous++
				continue
			}
			seen[[2]string{f.names[0], m}], mods[i] = true, m
		}
		hot = append(hot, i)
	}
	if len(hot) == 0 {
		return nil, ErrNoHotFunction
	}
	order := orderFuncs(p, hot)
	prof.Funcs = layoutAll(p, order)
	for k, i := range order {
		prof.Funcs[k].Module = mods[i]
	}
	return prof, nil
}

// moduleOf is the compile unit of f's entry ("": unknown).
func moduleOf(module func(uint64) string, f *funcCFG) string {
	if module == nil {
		return ""
	}
	return module(f.blocks[f.entry].addr)
}

// layoutAll lays out the functions order gives (indexes in p.funcs), in
// that order, one per CPU at a time: each layout is the function's alone.
func layoutAll(p *program, order []int) []Func {
	out := make([]Func, len(order))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				out[k] = layoutFunc(p.funcs[order[k]])
			}
		}()
	}
	for k := range order {
		next <- k
	}
	close(next)
	wg.Wait()
	return out
}

// symbolNames groups the names of function symbols by address, and says
// which names are at more than one address.
func symbolNames(syms []binary.Symbol) (map[uint64][]string, map[string]bool) {
	names := map[uint64][]string{}
	at := map[string]uint64{}
	ambiguous := map[string]bool{}
	for _, s := range syms {
		if a, ok := at[s.Name]; ok && a != s.Addr {
			ambiguous[s.Name] = true
		}
		at[s.Name] = s.Addr
		if !slices.Contains(names[s.Addr], s.Name) {
			names[s.Addr] = append(names[s.Addr], s.Name)
		}
	}
	return names, ambiguous
}

// orderFuncs orders the hot functions (indexes in p.funcs) by C3.
func orderFuncs(p *program, hot []int) []int {
	local := make(map[int]int, len(hot))
	fs := make([]c3Func, len(hot))
	for li, i := range hot {
		local[i] = li
		fs[li] = c3Func{size: p.funcs[i].hotSize(), weight: p.funcs[i].weight()}
	}
	calls := map[[2]int]uint64{}
	for e, n := range p.calls {
		a, ok1 := local[e[0]]
		b, ok2 := local[e[1]]
		if ok1 && ok2 {
			calls[[2]int{a, b}] += n
		}
	}
	order := c3Order(fs, calls)
	for k, li := range order {
		order[k] = hot[li]
	}
	return order
}

// hotSize is the size of the function's executed blocks.
func (f *funcCFG) hotSize() uint64 {
	var n uint64
	for _, b := range f.blocks {
		if b.count > 0 {
			n += b.size
		}
	}
	return n
}

// weight is the executions of the function's blocks.
func (f *funcCFG) weight() uint64 {
	var n uint64
	for _, b := range f.blocks {
		n += b.count
	}
	return n
}
