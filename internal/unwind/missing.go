package unwind

import (
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/record"
)

// Funcs tells which function an address belongs to.
type Funcs interface {
	// FuncAt returns the function range holding addr (its start) and the
	// function (any id, the same for all its ranges); ok is false outside
	// every function.
	FuncAt(addr uint64) (rangeStart, fn uint64, ok bool)
}

// MissingFrames infers the frames that tail calls leave out of a context
// (llvm-profgen's MissingFrameInferrer, --infer-missing-frames): between a
// call site and a frame of a function that call does not reach directly,
// the unique chain of tail calls that leads there, if there is exactly one.
// The calls and tail calls are those the branch stacks saw. llvm-profgen 19
// applies it to the address contexts of pseudo-probe profiles only.
type MissingFrames struct {
	funcs    Funcs
	calls    map[uint64][]uint64 // call site -> functions it called
	tails    map[uint64][]uint64 // tail-call site -> functions it jumped to
	tailTo   map[uint64]bool     // functions some tail call reaches
	funcTail map[uint64][]uint64 // function -> its tail-call sites
	unique   map[[2]uint64][]uint64
	multi    map[[2]uint64]int
	visiting map[uint64]bool
	maxDepth int
	depth    int
}

// NewMissingFrames learns the calls and tail calls from the branches of
// the contexts (any context: only sources and targets count). A tail call
// is a jump from a function range to another range (for a direct jump, of
// another function). maxDepth bounds the tail-call chains searched (-1: no
// bound), as llvm-profgen's --max-search-depth: at 0 only the function
// itself is reached.
func NewMissingFrames(code Code, funcs Funcs, counters []*aggregate.Counters, maxDepth int) *MissingFrames {
	m := &MissingFrames{funcs: funcs, calls: map[uint64][]uint64{}, tails: map[uint64][]uint64{},
		tailTo: map[uint64]bool{}, funcTail: map[uint64][]uint64{}, unique: map[[2]uint64][]uint64{},
		multi: map[[2]uint64]int{}, visiting: map[uint64]bool{}, maxDepth: maxDepth}
	for _, c := range counters {
		if c == nil {
			continue
		}
		for b := range c.Branches {
			m.learn(code, b)
		}
	}
	for _, ts := range m.calls {
		slices.Sort(ts)
	}
	for site, ts := range m.tails {
		slices.Sort(ts)
		if _, fn, ok := funcs.FuncAt(site); ok {
			m.funcTail[fn] = append(m.funcTail[fn], site)
		}
	}
	for _, sites := range m.funcTail {
		slices.Sort(sites)
	}
	return m
}

// learn records a branch that is a call or a tail call.
func (m *MissingFrames) learn(code Code, b record.Branch) {
	k, ok := kindAt(code, b.From)
	if !ok {
		return
	}
	fromRange, fromFn, okFrom := m.funcs.FuncAt(b.From)
	toRange, toFn, okTo := m.funcs.FuncAt(b.To)
	if !okFrom || !okTo {
		return
	}
	switch {
	case k == insn.Call:
		m.calls[b.From] = addOnce(m.calls[b.From], toFn)
	case k == insn.Jump && fromFn == toFn, k != insn.Jump && k != insn.IndirectJump:
	case fromRange != toRange:
		m.tails[b.From] = addOnce(m.tails[b.From], toFn)
		m.tailTo[toFn] = true
	}
}

func addOnce(s []uint64, v uint64) []uint64 {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

// Infer returns ctx (call sites outermost first, then the leaf's address)
// with the call sites of the tail calls that must have run between two
// frames inserted.
func (m *MissingFrames) Infer(ctx []uint64) []uint64 {
	if len(ctx) < 2 {
		return ctx
	}
	out := make([]uint64, 0, len(ctx))
	for i := 1; i < len(ctx); i++ {
		out = m.between(ctx[i-1], ctx[i], out)
	}
	return append(out, ctx[len(ctx)-1])
}

// between appends from and, when a unique chain of tail calls leads from
// the functions it calls to the function of to, that chain's call sites.
func (m *MissingFrames) between(from, to uint64, path []uint64) []uint64 {
	path = append(path, from)
	keep := len(path)
	_, toFn, ok := m.funcs.FuncAt(to)
	callees := m.calls[from]
	if !ok || len(callees) == 0 || slices.Contains(callees, toFn) || !m.tailTo[toFn] {
		return path
	}
	clear(m.visiting)
	m.depth = 0
	n := 0
	for _, fn := range callees {
		var c int
		path, c = m.fromFunc(fn, toFn, path)
		if n += c; n > 1 {
			break
		}
	}
	if n != 1 {
		path = path[:keep]
	}
	return path
}

// fromFunc counts the tail-call chains from function from to function to
// (stopping at two), appending the chain's sites when there is one.
func (m *MissingFrames) fromFunc(from, to uint64, path []uint64) ([]uint64, int) {
	if from == to {
		return path, 1
	}
	if m.visiting[from] {
		return path, 0 // a cycle
	}
	if m.maxDepth >= 0 && m.depth >= m.maxDepth {
		return path, 0 // before the caches, which may hold deeper chains
	}
	key := [2]uint64{from, to}
	if p, ok := m.unique[key]; ok {
		return append(path, p...), 1
	}
	if n, ok := m.multi[key]; ok {
		return path, n
	}
	if len(m.funcTail[from]) == 0 {
		return path, 0
	}
	keep := len(path)
	m.depth++
	m.visiting[from] = true
	n := 0
	for _, site := range m.funcTail[from] {
		var c int
		path, c = m.fromSite(site, to, path)
		if n += c; n > 1 {
			break
		}
	}
	m.depth--
	delete(m.visiting, from)
	if n != 1 {
		path = path[:keep]
		m.multi[key] = n
		return path, n
	}
	m.unique[key] = slices.Clone(path[keep:])
	return path, 1
}

// fromSite counts the chains through one tail-call site.
func (m *MissingFrames) fromSite(site, to uint64, path []uint64) ([]uint64, int) {
	targets := m.tails[site]
	if len(targets) == 0 {
		return path, 0
	}
	keep := len(path)
	path = append(path, site)
	n := 0
	for _, fn := range targets {
		var c int
		path, c = m.fromFunc(fn, to, path)
		if n += c; n > 1 {
			break
		}
	}
	if n != 1 {
		path = path[:keep]
	}
	return path, n
}
