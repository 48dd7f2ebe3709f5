package fpskid

import (
	"slices"

	"github.com/profgen/profgen/internal/binary/insn"
)

// The static call graph: which call sites lead from one function to
// another. Edges are direct calls and tail calls; an indirect call may
// lead anywhere.

// maxDepth bounds the chains of calls searched between two functions.
const maxDepth = 3

// maxVisits bounds the work of one search.
const maxVisits = 4096

// pathTo returns the call sites by which function from reaches a function
// that isTarget accepts: the shortest chain of direct calls and tail calls
// (at most maxDepth), or else one of from's indirect calls. found is false
// when there is no such chain; unique is false when several are equally
// short.
func (c *code) pathTo(from uint64, isTarget func(uint64) bool) (path []uint64, found, unique bool) {
	for depth := 1; depth <= maxDepth; depth++ {
		s := search{c: c, isTarget: isTarget}
		s.walk(from, depth)
		if s.paths > 0 {
			return s.path, true, s.paths == 1 && s.visits < maxVisits
		}
		if s.visits >= maxVisits {
			return nil, false, false
		}
	}
	fn := c.funcs[from]
	if fn == nil {
		fn = c.funcAt(from)
	}
	var only uint64
	n := 0
	for _, s := range fn.sitesOrNil() {
		if s.indirect {
			only = s.at
			n++
		}
	}
	return []uint64{only}, n > 0, n == 1
}

func (fn *function) sitesOrNil() []site {
	if fn == nil {
		return nil
	}
	return fn.sites
}

// search counts the chains of exactly a given length, keeping the first.
type search struct {
	c        *code
	isTarget func(uint64) bool
	stack    []uint64
	path     []uint64
	paths    int
	visits   int
}

func (s *search) walk(from uint64, depth int) {
	fn := s.c.funcAt(from)
	for _, st := range fn.sitesOrNil() {
		if st.indirect || s.paths > 1 || s.visits >= maxVisits {
			continue
		}
		s.visits++
		s.stack = append(s.stack, st.at)
		if depth == 1 && s.isTarget(st.target) {
			s.paths++
			if s.paths == 1 {
				s.path = append([]uint64(nil), s.stack...)
			}
		} else if depth > 1 && !s.c.plt[st.target] {
			s.walk(st.target, depth-1)
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
}

// uniqueCaller returns the one call site in the binary that calls (or
// tail-calls) the function at entry directly, if there is exactly one.
func (c *code) uniqueCaller(entry uint64) (uint64, bool) {
	if c.callers == nil {
		c.indexCallers()
	}
	sites := c.callers[entry]
	if len(sites) != 1 {
		return 0, false
	}
	return sites[0].at, true
}

// indexCallers finds the direct call and tail-call sites of the whole
// binary for the reverse call graph, in one pass over its code: an
// instruction is a site of each function (as walk decodes it) holding it.
func (c *code) indexCallers() {
	c.callers = map[uint64][]site{}
	fns := c.walkable()
	var active []*function // the functions holding the instruction
	next := 0
	for in, b := range c.f.Scan() {
		for next < len(fns) && fns[next].entry <= in.Addr {
			active = append(active, fns[next])
			next++
		}
		if len(active) == 0 {
			continue
		}
		end := in.End()
		active = slices.DeleteFunc(active, func(fn *function) bool { return in.Addr >= fn.end || end > fn.end })
		if in.Kind != insn.Call && in.Kind != insn.Jump && in.Kind != insn.CondBranch {
			continue
		}
		i := inst{addr: in.Addr, kind: in.Kind}
		i.target, i.direct = x86Target(b, end)
		for _, fn := range active {
			if s, ok := c.siteOf(fn, i, end); ok && !s.indirect {
				c.callers[s.target] = append(c.callers[s.target], s)
			}
		}
	}
}

// walkable returns the functions that walk decodes, one per entry (the
// first symbol of an address), in address order.
func (c *code) walkable() []*function {
	var out []*function
	for _, sym := range c.f.FuncSymbols() {
		if len(out) > 0 && out[len(out)-1].entry == sym.Addr {
			continue
		}
		fn := &function{entry: sym.Addr, end: sym.Addr + sym.Size}
		if sym.Size == 0 || sym.Size > maxFuncSize || !c.f.HoldsCode(sym.Addr, sym.Size) {
			fn.end = fn.entry // never holds an instruction
		}
		out = append(out, fn)
	}
	return out
}
