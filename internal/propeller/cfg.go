package propeller

import (
	"cmp"
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary/bbaddrmap"
	"github.com/profgen/profgen/internal/record"
)

// block is a basic block of a function's graph.
type block struct {
	id    uint32
	addr  uint64
	size  uint64
	part  int // the index of its range in the function's map
	meta  bbaddrmap.Metadata
	count uint64 // executions: the ranges that cover it
}

// funcCFG is the control-flow graph of one function.
type funcCFG struct {
	names  []string // its symbols; the first names it
	blocks []block  // in address order; blocks[entry] starts the function
	entry  int
	edges  map[[2]int]uint64 // (from, to) block indexes -> taken or fall-through count
}

// hot reports whether a block of the function ran.
func (f *funcCFG) hot() bool {
	return slices.ContainsFunc(f.blocks, func(b block) bool { return b.count > 0 })
}

// program is the graphs of a binary's functions and the calls between
// them.
type program struct {
	funcs []*funcCFG
	index []blockRef        // every block, by address
	calls map[[2]int]uint64 // (caller, callee) function indexes -> count
}

// blockRef places a block in the program.
type blockRef struct {
	addr, end uint64
	fn, blk   int
}

// newProgram builds the graphs of the functions of the map that have a
// name, with no counts yet. names gives a function's symbols by address.
func newProgram(funcs []bbaddrmap.Func, names func(addr uint64) []string) *program {
	p := &program{calls: map[[2]int]uint64{}}
	for _, f := range funcs {
		n := names(f.Addr())
		if len(n) == 0 || f.NumBlocks() == 0 {
			continue
		}
		p.funcs = append(p.funcs, newFuncCFG(f, n))
	}
	for fi, f := range p.funcs {
		for bi, b := range f.blocks {
			p.index = append(p.index, blockRef{addr: b.addr, end: b.addr + b.size, fn: fi, blk: bi})
		}
	}
	slices.SortStableFunc(p.index, func(a, b blockRef) int { return cmp.Compare(a.addr, b.addr) })
	return p
}

// newFuncCFG is the graph of f's blocks, without edges. A block ID seen
// twice (a clone) keeps its first place.
func newFuncCFG(f bbaddrmap.Func, names []string) *funcCFG {
	g := &funcCFG{names: names}
	var seen map[uint32]bool // with several ranges, where clones are
	if len(f.Ranges) > 1 {
		seen = map[uint32]bool{}
	}
	for ri, r := range f.Ranges {
		end := r.Base
		for _, b := range r.Blocks {
			addr := r.Base + uint64(b.Offset)
			if !seen[b.ID] && addr >= end {
				if seen != nil {
					seen[b.ID] = true
				}
				g.blocks = append(g.blocks, block{id: b.ID, addr: addr, size: uint64(b.Size), part: ri, meta: b.Meta})
				end = addr + uint64(b.Size)
			}
		}
	}
	slices.SortStableFunc(g.blocks, func(a, b block) int { return cmp.Compare(a.addr, b.addr) })
	g.entry = max(0, slices.IndexFunc(g.blocks, func(b block) bool { return b.addr == f.Addr() }))
	return g
}

// blockAt is the block that holds addr.
func (p *program) blockAt(addr uint64) (blockRef, bool) {
	i, _ := slices.BinarySearchFunc(p.index, addr, func(r blockRef, a uint64) int { return cmp.Compare(r.addr, a+1) })
	for i--; i >= 0; i-- {
		if r := p.index[i]; addr < r.end {
			return r, true
		} else if r.addr < addr {
			break // zero-size blocks at addr's start are passed over
		}
	}
	return blockRef{}, false
}

// blockStarting is the block that starts at addr, with a size.
func (p *program) blockStarting(addr uint64) (blockRef, bool) {
	r, ok := p.blockAt(addr)
	return r, ok && r.addr == addr
}

// addCounts weights the graphs with c's ranges and branches.
func (p *program) addCounts(c *aggregate.Counters) {
	for r, n := range c.Ranges {
		p.addRange(r, n)
	}
	for b, n := range c.Branches {
		p.addBranch(b, n)
	}
}

// addRange counts the blocks a fall-through range covers, and the
// fall-through edge between each two of them.
func (p *program) addRange(r aggregate.Range, n uint64) {
	first, ok1 := p.blockAt(r.Start)
	last, ok2 := p.blockAt(r.End)
	if !ok1 || !ok2 || first.fn != last.fn || first.blk > last.blk {
		return
	}
	f := p.funcs[first.fn]
	if f.blocks[first.blk].part != f.blocks[last.blk].part {
		return
	}
	for i := first.blk; i <= last.blk; i++ {
		f.blocks[i].count += n
		if i > first.blk {
			f.addEdge(i-1, i, n)
		}
	}
}

// addBranch counts a taken branch: an edge between two blocks of a
// function, or a call to a function's entry. A return, and a branch into
// the middle of a block (a return past a call), count nothing.
func (p *program) addBranch(b record.Branch, n uint64) {
	if b.From == aggregate.ExternalAddr || b.To == aggregate.ExternalAddr {
		return
	}
	src, ok1 := p.blockAt(b.From)
	dst, ok2 := p.blockStarting(b.To)
	if !ok1 || !ok2 {
		return
	}
	if dst.blk == p.funcs[dst.fn].entry {
		if src.fn != dst.fn {
			p.calls[[2]int{src.fn, dst.fn}] += n
		}
		return
	}
	if src.fn == dst.fn && !p.funcs[src.fn].blocks[src.blk].returns() {
		p.funcs[src.fn].addEdge(src.blk, dst.blk, n)
	}
}

// returns reports whether the block ends with a return: a branch from it
// into its own function is a return from a recursive call.
func (b block) returns() bool {
	return b.meta.Has(bbaddrmap.HasReturn) && !b.meta.Has(bbaddrmap.HasTailCall)
}

// addEdge counts n on the edge between blocks from and to.
func (f *funcCFG) addEdge(from, to int, n uint64) {
	if f.edges == nil {
		f.edges = map[[2]int]uint64{}
	}
	f.edges[[2]int{from, to}] += n
}
