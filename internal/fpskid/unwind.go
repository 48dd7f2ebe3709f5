// Package fpskid checks the call chains of perf's frame-pointer unwinding
// against the binary's code and repairs what the unwinding got wrong.
//
// In: aggregate.StackCounts and the profiled binaries. Out: the same
// counts, their stacks repaired, and Stats.
//
// perf record -g walks the chain of saved frame pointers. When the sampled
// function has not set up its frame (a frameless leaf, a prologue before
// push %rbp; mov %rsp,%rbp, an epilogue after pop %rbp), %rbp still points
// at its caller's frame, so the walk's first return address is the
// caller's: the caller is missing, and the stack shows a call from the
// caller's caller that the source does not have. A tail call and a
// frameless function in the middle of the stack lose frames the same way.
//
// For each edge of a stack (a callee frame and the call instruction of the
// caller frame above it), the repair decodes the call: a direct call to
// another function than the callee, or an indirect call above a leaf whose
// frame is not established, means frames are missing. The missing frames
// are inferred from the static call graph when it makes them unique (the
// shortest chain of direct calls and tail calls from the function called to
// the callee, or the one indirect call of that function; for an indirect
// call, the callee's one call site in the binary), as llvm-profgen's
// MissingFrameInferrer does for tail calls. Where the code leaves several
// call sites (a function calling the callee from two places, a virtual
// call), the stacks that needed no repair choose: the sites seen calling
// the callee there (inside the function called, or, below an indirect
// call, in a function seen called from it) share the samples in
// proportion to how often each was seen. Otherwise a frame without a
// call site stands in (aggregate.Object.UnknownSite): the function called
// when the call is direct, nothing when it is not. The sample keeps its
// self time and its real callers; only the fake edge is gone.
//
// Only x86-64 code is checked; frames outside the profiled binaries are
// taken as they are, except a leaf in another DSO (libc), whose caller
// must have called through the PLT.
package fpskid

import (
	"debug/elf"
	"math"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
)

// Stats says what the repair did, in samples.
type Stats struct {
	Repaired uint64 // samples whose stack got frames inferred from the code
	// SiteUnknown counts the samples among Repaired where a missing
	// frame's call site (or even its function) could not be told.
	SiteUnknown uint64
}

// Repair repairs the stacks of counts; bins are the profiled binaries, as
// indexed by aggregate.Object.Binary. pre, when not nil, has checked
// edges of the stacks while they were aggregated (Prechecker).
func Repair(counts *aggregate.StackCounts, bins []*binary.File, pre *Prechecker) Stats {
	r := &repairer{counts: counts, fixList: []fix{{}}, edges: make([]checkedEdge, 0, len(counts.Stacks)),
		edgeIndexes: newEdgeTable(len(counts.Stacks)), stackFixes: make([]stackFixes, len(counts.Stacks))}
	if pre != nil {
		r.code, r.prechecked = pre.wait()
	} else {
		r.code = newCodes(bins)
	}
	n := 0
	for _, s := range counts.Stacks {
		n += len(s.Locs)
	}
	r.fixOfEdges = make([]int32, 0, n)
	for i, s := range counts.Stacks {
		r.stackFixes[i] = r.observe(s)
	}
	r.noteSeenCalls()
	r.resolveCallers()
	counts.Rewrite(r.fixStack)
	return r.stats
}

// newCodes returns a code for each x86-64 binary of bins, nil for others.
func newCodes(bins []*binary.File) []*code {
	codes := make([]*code, len(bins))
	for i, f := range bins {
		if f.ELF().Machine == elf.EM_X86_64 {
			codes[i] = newCode(f)
		}
	}
	return codes
}

// observe checks the edges of s, keeping their fixes for fixStack when
// one has any, and counts the samples of each edge.
func (r *repairer) observe(s *aggregate.Stack) stackFixes {
	first := r.firstUserFrame(s.Locs)
	start, fixed := len(r.fixOfEdges), false
	for i := first; i+1 < len(s.Locs); i++ {
		ce := &r.edges[r.edgeIndex(edge{callee: s.Locs[i], caller: s.Locs[i+1], leaf: i == first})]
		ce.samples += s.Count
		r.fixOfEdges = append(r.fixOfEdges, ce.fix)
		fixed = fixed || ce.fix != 0
	}
	if !fixed {
		r.fixOfEdges = r.fixOfEdges[:start]
		return stackFixes{start: -1}
	}
	return stackFixes{start: int32(start), first: int32(first)}
}

// noteSeenCalls notes the calls that needed no repair: which function
// each call site was seen calling, and in how many samples.
func (r *repairer) noteSeenCalls() {
	for _, ce := range r.edges {
		if ce.samples == 0 || r.fixList[ce.fix].insert != nil {
			continue
		}
		e := ce.edge
		callee, caller := r.counts.Objects[e.callee.Obj], r.counts.Objects[e.caller.Obj]
		if caller.Binary < 0 || caller.Binary != callee.Binary || caller.UnknownSite || callee.UnknownSite ||
			r.code[caller.Binary] == nil {
			continue
		}
		c := r.code[caller.Binary]
		if fn := c.symbolAt(e.callee.Addr); fn != nil {
			c.observe(e.caller.Addr, fn.entry, ce.samples)
		}
	}
}

type repairer struct {
	counts *aggregate.StackCounts
	code   []*code
	// prechecked holds what check found for the edges a Prechecker saw.
	prechecked map[edgeKey]fix
	// edges are the distinct edges checked, indexed by edgeIndexes.
	edges       []checkedEdge
	edgeIndexes edgeTable
	fixList     []fix // the fixes of edges; the first is the empty one
	// fixOfEdges holds the fixes of the edges of the stacks that have
	// one, as observe found them, from stackFixes[stack index].start on:
	// fixStack reads them back.
	fixOfEdges []int32
	stackFixes []stackFixes
	stats      Stats
}

// stackFixes locates the fixes of the edges of a stack in fixOfEdges:
// from start on (-1 when none needs a fix), one per frame from the first
// user-space frame (first).
type stackFixes struct {
	start, first int32
}

// checkedEdge is an edge, its fix (an index in fixList) and the samples
// of the stacks holding it.
type checkedEdge struct {
	edge
	fix     int32
	samples uint64
}

// edge is a callee frame and the caller frame above it; leaf tells that
// the callee frame is the sampled instruction pointer.
type edge struct {
	callee, caller aggregate.Loc
	leaf           bool
}

// edgeKey is an edge packed without padding, which hashes as plain
// memory: the repair looks up every edge of every stack twice.
type edgeKey struct {
	callee, caller uint64
	objs           uint64 // callee object << 32 | caller object << 1 | leaf
}

// is reports whether e and o are the same edge, field by field: == on
// the padded struct calls a generated function.
func (e edge) is(o edge) bool {
	return e.callee.Addr == o.callee.Addr && e.caller.Addr == o.caller.Addr &&
		e.callee.Obj == o.callee.Obj && e.caller.Obj == o.caller.Obj && e.leaf == o.leaf
}

func (e edge) key() edgeKey {
	objs := uint64(uint32(e.callee.Obj))<<32 | uint64(uint32(e.caller.Obj))<<1
	if e.leaf {
		objs |= 1
	}
	return edgeKey{e.callee.Addr, e.caller.Addr, objs}
}

// fix is what goes between the two frames of an edge, innermost first.
type fix struct {
	insert  []aggregate.Loc
	unknown bool // a frame without its call site is among them
	// guess, when the code leaves several call sites, lets the stacks
	// that needed no repair choose among them; insert is the fallback.
	// check says which it wants, settle makes it.
	guess *guess
	wants guessKey
	// callerOf, when not 0, is the entry of a function whose one direct
	// call in the binary replaces the fix (resolveCallers); callerObj is
	// the object of the caller frame.
	callerOf  uint64
	callerObj int32
}

// fixStack returns the repaired frames of s, counts.Stacks[si], or nil
// when nothing is missing.
func (r *repairer) fixStack(si int, s *aggregate.Stack) []aggregate.Loc {
	sf := r.stackFixes[si]
	if sf.start < 0 {
		return nil
	}
	first, fixes := int(sf.first), r.fixOfEdges[sf.start:]
	var out []aggregate.Loc // nil until a frame is inserted
	unknown := false
	for i, l := range s.Locs {
		if out != nil {
			out = append(out, l)
		}
		if i < first || i+1 >= len(s.Locs) || fixes[i-first] == 0 {
			continue
		}
		f := &r.fixList[fixes[i-first]]
		if f.guess != nil {
			picked := f.guess.pick(s.Count, *f)
			f = &picked
		}
		if len(f.insert) > 0 && out == nil {
			out = append(make([]aggregate.Loc, 0, len(s.Locs)+len(f.insert)+4), s.Locs[:i+1]...)
		}
		out = append(out, f.insert...)
		unknown = unknown || f.unknown
	}
	if out == nil {
		return nil
	}
	r.stats.Repaired += s.Count
	if unknown {
		r.stats.SiteUnknown += s.Count
	}
	return out
}

// firstUserFrame returns the index of the first frame outside the kernel:
// the user-space instruction pointer.
func (r *repairer) firstUserFrame(locs []aggregate.Loc) int {
	return firstUserFrame(locs, r.counts.Objects)
}

func firstUserFrame(locs []aggregate.Loc, objects []aggregate.Object) int {
	for i, l := range locs {
		if !objects[l.Obj].Kernel {
			return i
		}
	}
	return len(locs)
}

// edgeIndex returns the index of e in edges, checking e the first time.
func (r *repairer) edgeIndex(e edge) int32 {
	h := e.key().hash()
	slot := r.edgeIndexes.find(h, func(i int32) bool { return r.edges[i].is(e) })
	if slot.index != 0 {
		return slot.index - 1
	}
	ce := checkedEdge{edge: e}
	f, ok := r.prechecked[e.key()]
	if !ok {
		f = checker{objects: r.counts.Objects, codes: r.code}.check(e)
	}
	if f.insert != nil || f.unknown || f.wants != (guessKey{}) || f.callerOf != 0 {
		ce.fix = int32(len(r.fixList))
		r.fixList = append(r.fixList, r.settle(f, e))
	}
	i := int32(len(r.edges))
	r.edges = append(r.edges, ce)
	r.edgeIndexes.add(slot, h, i, func(i int32) uint64 { return r.edges[i].key().hash() })
	return i
}

// settle makes what check left to be made, in the order of the edges:
// the object of the frames without a call site and the guess.
func (r *repairer) settle(f fix, e edge) fix {
	bi := r.counts.Objects[e.caller.Obj].Binary
	if len(f.insert) > 0 && f.insert[0].Obj == unknownSite {
		f.insert = []aggregate.Loc{{Obj: r.counts.UnknownSiteObject(bi), Addr: f.insert[0].Addr}}
	}
	f.guess = r.code[bi].guessFor(f.wants)
	return f
}

// checker checks edges: their objects are in objects, the code of their
// binaries in codes. It changes neither, so that a Prechecker can check
// on its own goroutine; what check would have to add (the object of the
// frames without a call site, the guess) settle adds.
type checker struct {
	objects []aggregate.Object
	codes   []*code
}

// unknownSite stands, in the fixes check returns, for the object of the
// frames without a call site of the caller's binary, which settle makes.
const unknownSite = math.MinInt32

// check decodes the call of e's caller frame and says which frames are
// missing below it.
func (k checker) check(e edge) fix {
	caller := k.objects[e.caller.Obj]
	if caller.Binary < 0 || caller.UnknownSite || k.codes[caller.Binary] == nil {
		return fix{}
	}
	c := k.codes[caller.Binary]
	callee, ok := k.calleeOf(e, c, caller.Binary)
	if !ok || returnsFromCallOf(e, c, callee) && calleeEstablished(e, c, callee) {
		return fix{}
	}
	call, ok := c.callAt(e.caller.Addr)
	if !ok {
		return fix{}
	}
	if !call.direct {
		if calleeEstablished(e, c, callee) {
			return fix{} // nothing to check against
		}
		return unknownCaller(e, callee)
	}
	if callee.isTarget(call.target()) && calleeEstablished(e, c, callee) {
		return fix{}
	}
	path, found, unique := c.pathTo(call.target(), callee)
	switch {
	case unique:
		return fix{insert: sites(e.caller.Obj, path)}
	case !found && callee.isTarget(call.target()):
		return fix{} // a call of the callee itself, and no other way: trust it
	}
	return fix{insert: []aggregate.Loc{{Obj: unknownSite, Addr: call.target()}}, unknown: true,
		wants: guessKey{e.caller.Obj, callee.entry, call.target(), 0}}
}

// returnsFromCallOf reports, without decoding the caller's function, that
// the caller frame of an edge returns from a direct call (e8 rel32 right
// before the return address) that the callee agrees with: for a callee
// whose frame is set up, what check finds decoding it, unless the return
// address is not an instruction boundary of the linear decoding, whose
// misreading check would then take for a missing frame.
func returnsFromCallOf(e edge, c *code, cal callee) bool {
	var b [5]byte
	ret := e.caller.Addr + 1
	if ret < uint64(len(b)) || c.f.ReadCode(ret-uint64(len(b)), b[:]) != nil || b[0] != 0xe8 {
		return false
	}
	target, _ := x86Target(b[:], ret)
	return cal.isTarget(target)
}

// callee is what the frame below a call must be.
type callee struct {
	entry uint64    // the function's entry, in the caller's binary
	fn    *function // the function, nil for one in another DSO
	// plt, for a function in another DSO, holds the PLT stubs of the
	// caller's binary, any of which may lead to it.
	plt map[uint64]bool
}

// isTarget reports whether a call to t agrees with the callee.
func (cal callee) isTarget(t uint64) bool {
	if cal.plt != nil {
		return cal.plt[t]
	}
	return t == cal.entry
}

// calleeOf says which call targets the callee frame of e agrees with.
func (k checker) calleeOf(e edge, c *code, bi int) (callee, bool) {
	obj := k.objects[e.callee.Obj]
	switch {
	case obj.Kernel || obj.UnknownSite:
		return callee{}, false
	case obj.Binary < 0: // another DSO: entered through the PLT
		return callee{plt: c.plt}, true
	case obj.Binary != bi:
		return callee{}, false
	}
	fn := c.symbolAt(e.callee.Addr)
	if fn == nil {
		return callee{}, false
	}
	return callee{entry: fn.entry, fn: fn}, true
}

// calleeEstablished reports whether the callee frame of e, whose function is
// cal, has its own frame set up: always, for a frame that is not the
// leaf; unknown, so taken as set up, for code outside the binary. check
// asks only where the answer matters, as it may decode the leaf's
// function (not for Go code: leafEstablished).
func calleeEstablished(e edge, c *code, cal callee) bool {
	return !e.leaf || cal.fn == nil || c.leafEstablished(cal.fn, e.callee.Addr)
}

// unknownCaller handles a leaf without its frame below an indirect call:
// its caller is missing and only the binary's one direct call of the leaf
// function can name it. Which call that is is resolved for all such edges
// at once (resolveCallers); until then the fix is the fallback, a frame
// without its call site.
func unknownCaller(e edge, cal callee) fix {
	return fix{insert: []aggregate.Loc{{Obj: unknownSite, Addr: 0}}, unknown: true,
		wants: guessKey{e.caller.Obj, cal.entry, 0, e.caller.Addr}, callerOf: cal.entry, callerObj: e.caller.Obj}
}

// resolveCallers gives the fixes that wait for the one direct call of a
// function its site, where the binary has exactly one.
func (r *repairer) resolveCallers() {
	wanted := map[int][]uint64{} // entries by binary
	for _, f := range r.fixList {
		if f.callerOf != 0 {
			bi := r.counts.Objects[f.callerObj].Binary
			wanted[bi] = append(wanted[bi], f.callerOf)
		}
	}
	for bi, entries := range wanted {
		sites := r.code[bi].uniqueCallers(entries)
		for i, f := range r.fixList {
			if at, ok := sites[f.callerOf]; ok && f.callerOf != 0 && r.counts.Objects[f.callerObj].Binary == bi {
				r.fixList[i] = fix{insert: []aggregate.Loc{{Obj: f.callerObj, Addr: at}}}
			}
		}
	}
}

// sites turns a chain of call sites (outermost first) into caller frames,
// innermost first.
func sites(obj int32, path []uint64) []aggregate.Loc {
	out := make([]aggregate.Loc, len(path))
	for i, at := range path {
		out[len(path)-1-i] = aggregate.Loc{Obj: obj, Addr: at}
	}
	return out
}
