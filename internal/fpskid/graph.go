package fpskid

import (
	"cmp"
	"slices"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/binary/x86"
)

// The static call graph: which call sites lead from one function to
// another. Edges are direct calls and tail calls; an indirect call may
// lead anywhere.

// maxDepth bounds the chains of calls searched between two functions.
const maxDepth = 3

// maxVisits bounds the work of one search.
const maxVisits = 4096

// pathTo returns the call sites by which function from reaches the
// function cal: the shortest chain of direct calls and tail calls (at most
// maxDepth), or else one of from's indirect calls. found is false when
// there is no such chain; unique is false when several are equally short.
// The answers are kept: the edges from the samples at several addresses of
// a function below the same call ask the same. The path is shared; its
// users copy it.
func (c *code) pathTo(from uint64, cal callee) (path []uint64, found, unique bool) {
	k := pathQuestion{from: from, entry: cal.entry, viaPLT: cal.plt != nil}
	a, ok := c.paths[k]
	if !ok {
		a.path, a.found, a.unique = c.searchPath(from, cal)
		if c.paths == nil {
			c.paths = map[pathQuestion]pathAnswer{}
		}
		c.paths[k] = a
	}
	return a.path, a.found, a.unique
}

// pathQuestion is what pathTo is asked: the function called, and the
// callee's entry (for a function in another DSO, viaPLT and 0).
type pathQuestion struct {
	from, entry uint64
	viaPLT      bool
}

// pathAnswer is what pathTo answers.
type pathAnswer struct {
	path          []uint64
	found, unique bool
}

// searchPath is pathTo without its memory.
func (c *code) searchPath(from uint64, cal callee) (path []uint64, found, unique bool) {
	fn := c.symbolAt(from)
	for depth := 1; depth <= maxDepth; depth++ {
		s := search{c: c, callee: cal}
		s.walk(fn, depth)
		if s.paths > 0 {
			return s.path, true, s.paths == 1 && s.visits < maxVisits
		}
		if s.visits >= maxVisits {
			return nil, false, false
		}
	}
	var only uint64
	n := 0
	for _, s := range c.callSites(fn) {
		if s.indirect {
			only = s.at
			n++
		}
	}
	return []uint64{only}, n > 0, n == 1
}

// search counts the chains of exactly a given length, keeping the first.
type search struct {
	c      *code
	callee callee
	stack  []uint64
	path   []uint64
	paths  int
	visits int
}

// walk follows the chains of depth direct calls from fn.
func (s *search) walk(fn *function, depth int) {
	sites := s.c.callSites(fn)
	for k := range sites {
		st := &sites[k]
		if st.indirect || s.paths > 1 || s.visits >= maxVisits {
			continue
		}
		s.visits++
		s.stack = append(s.stack, st.at)
		if depth == 1 && s.callee.isTarget(st.target) {
			s.paths++
			if s.paths == 1 {
				s.path = append([]uint64(nil), s.stack...)
			}
		} else if depth > 1 && !s.c.plt[st.target] {
			s.walk(s.c.calledBy(st), depth-1)
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
}

// calledBy returns the function holding the target of the direct call
// site st (nil when none), found on first use.
func (c *code) calledBy(st *site) *function {
	if !st.calledFound {
		st.called, st.calledFound = c.symbolAt(st.target), true
	}
	return st.called
}

// uniqueCallers returns, of the functions at entries, those that the
// binary calls (or tail-calls) directly from exactly one site: the site by
// entry. It does not decode the whole binary: a search of the code's bytes
// finds where a direct branch to one of the entries could be, and only
// the functions holding those places are decoded.
func (c *code) uniqueCallers(entries []uint64) map[uint64]uint64 {
	entries = slices.Compact(slices.Sorted(slices.Values(entries)))
	candidates := map[uint64][]uint64{} // by target: where a branch to it could start
	for base, text := range c.f.CodeSections() {
		x86.BranchCandidates(text, base, entries, func(at, t uint64) { candidates[t] = append(candidates[t], at) })
	}
	out := map[uint64]uint64{}
	for _, e := range entries {
		if sites := c.sitesCalling(e, candidates[e], 2); len(sites) == 1 {
			out[e] = sites[0].at
		}
	}
	return out
}

// sitesCalling returns the direct call and tail-call sites of the function
// at entry among the instructions holding the candidate addresses, up to
// limit of them: a site of each function (as decode sees it) holding the
// instruction.
func (c *code) sitesCalling(entry uint64, candidates []uint64, limit int) []site {
	var out []site
	last := uint64(0)
	for _, at := range candidates {
		if len(out) >= limit {
			break
		}
		in, ok := c.instHolding(at)
		if !ok || in.addr == last || !in.direct || in.target() != entry {
			continue
		}
		last = in.addr
		for _, fn := range c.holders(in) {
			if s, ok := c.siteOf(fn, in); ok && !s.indirect {
				out = append(out, s)
			}
		}
	}
	return out
}

// instHolding decodes the instruction whose bytes hold addr.
func (c *code) instHolding(addr uint64) (inst, bool) {
	var found binary.Inst
	for in := range c.f.Insts(addr-min(addr, maxInstLen-1), addr) {
		found = in
	}
	if found.Size == 0 || found.End() <= addr {
		return inst{}, false
	}
	if found.Kind != insn.Call && found.Kind != insn.Jump && found.Kind != insn.CondBranch {
		return inst{}, false
	}
	b := make([]byte, found.Size)
	if c.f.ReadCode(found.Addr, b) != nil {
		return inst{}, false
	}
	return newInst(found, b), true
}

// maxInstLen is the longest x86-64 instruction.
const maxInstLen = 15

// holders returns the functions (as decode sees them) that hold in.
func (c *code) holders(in inst) []*function {
	if c.walkFuncs == nil {
		c.walkFuncs, c.walkEnds = c.walkable()
	}
	fns := c.walkFuncs
	i, _ := slices.BinarySearchFunc(fns, in.addr+1, func(fn function, a uint64) int { return cmp.Compare(fn.entry, a) })
	var out []*function
	for j := i - 1; j >= 0 && c.walkEnds[j] > in.addr; j-- {
		if fn := &fns[j]; in.addr < fn.end && in.end() <= fn.end {
			out = append(out, fn)
		}
	}
	return out
}

// walkable returns the functions as decode sees them, one per entry (the
// first symbol of an address), in address order, and the highest end of
// the functions up to each.
func (c *code) walkable() (fns []function, maxEnds []uint64) {
	syms := c.f.FuncSymbols()
	fns, maxEnds = make([]function, 0, len(syms)), make([]uint64, 0, len(syms))
	end := uint64(0)
	for _, sym := range syms {
		if len(fns) > 0 && fns[len(fns)-1].entry == sym.Addr {
			continue
		}
		fn := function{entry: sym.Addr, end: sym.Addr + sym.Size}
		if sym.Size == 0 || sym.Size > maxFuncSize || !c.f.HoldsCode(sym.Addr, sym.Size) {
			fn.end = fn.entry // never holds an instruction
		}
		end = max(end, fn.end)
		fns, maxEnds = append(fns, fn), append(maxEnds, end)
	}
	return fns, maxEnds
}
