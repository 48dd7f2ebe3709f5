package generate

import (
	"math"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// callGraph is what the stacks of one binary say about calls.
type callGraph struct {
	edges       map[callEdge]uint64 // samples below each call site and target
	unknownSite map[string]uint64   // samples below calls whose site is unknown, by callee
	inclusive   map[string]uint64   // samples on the stack of each function (as often as it is on it)
	entries     map[string]uint64   // entry address of each function seen
}

// callEdge is a call site (a call instruction's frame) and the function
// called there.
type callEdge struct {
	site   aggregate.Loc
	callee string
}

func newCallGraph() *callGraph {
	return &callGraph{edges: map[callEdge]uint64{}, unknownSite: map[string]uint64{},
		inclusive: map[string]uint64{}, entries: map[string]uint64{}}
}

// noteEntry records the entry of the function named fn that holds addr.
func (cg *callGraph) noteEntry(sym interface {
	FuncRangeAt(uint64) *symbolize.FuncRange
}, fn string, addr uint64) {
	if _, ok := cg.entries[fn]; ok {
		return
	}
	if r := sym.FuncRangeAt(addr); r != nil && r.IsEntry && r.Func.Name == fn {
		cg.entries[fn] = r.Start
	}
}

// addCalls writes binary bi's call targets and head samples.
func (g *stackGenerator) addCalls(bi int) {
	switch g.bins[bi].CallCounts {
	case CallCountsInclusive:
		g.addInclusiveCalls(bi)
	case CallCountsEstimate:
		g.addEstimatedCalls(bi)
	case CallCountsExecutions:
		g.addExecutionCalls(bi)
	}
}

// addInclusiveCalls counts each call as the samples below it.
func (g *stackGenerator) addInclusiveCalls(bi int) {
	cg, p := g.calls[bi], g.profiles[bi]
	for e, n := range cg.edges {
		g.callSiteProfile(bi, e.site).AddCallTarget(g.location(bi, g.innermost(e.site)), e.callee, n)
		p.Function(e.callee).HeadSamples += n
	}
	for callee, n := range cg.unknownSite {
		p.Function(callee).HeadSamples += n
	}
}

// addEstimatedCalls estimates execution counts: each function's entry
// block weight as its head samples, shared among its call sites by their
// part of its inclusive samples.
func (g *stackGenerator) addEstimatedCalls(bi int) {
	cg, p := g.calls[bi], g.profiles[bi]
	heads := map[string]uint64{}
	for fn, entry := range cg.entries {
		if f := p.Functions[fn]; f != nil {
			heads[fn] = g.entryWeight(bi, entry)
			f.HeadSamples = heads[fn]
		}
	}
	for e, n := range cg.edges {
		total := cg.inclusive[e.callee]
		calls := uint64(math.Round(float64(heads[e.callee]) * float64(n) / float64(total)))
		if calls == 0 {
			continue
		}
		g.callSiteProfile(bi, e.site).AddCallTarget(g.location(bi, g.innermost(e.site)), e.callee, calls)
	}
	for _, f := range p.Functions {
		updateCallsiteSamples(f)
	}
}

// maxEntryBlock bounds the instructions of an entry block.
const maxEntryBlock = 64

// entryWeight is the weight the sample loader gives the entry block of the
// function at entry: the largest body count among the lines of its
// instructions, up to the first branch or return.
func (g *stackGenerator) entryWeight(bi int, entry uint64) uint64 {
	var w uint64
	n := 0
	var fs []symbolize.Frame
	for in := range g.bins[bi].Code.Insts(entry, ^uint64(0)) {
		fs = g.bins[bi].Sym.Frames(in.Addr, fs)
		w = max(w, g.bodyAt(bi, fs))
		if n++; n >= maxEntryBlock || endsBlock(in.Kind) {
			break
		}
	}
	return w
}

func endsBlock(k insn.Kind) bool {
	return k == insn.CondBranch || k == insn.Jump || k == insn.IndirectJump || k == insn.Return
}

// bodyAt returns the body count of the line of inline stack fs, without
// adding anything to the profile.
func (g *stackGenerator) bodyAt(bi int, fs []symbolize.Frame) uint64 {
	if r := g.recordAt(bi, fs); r != nil {
		return r.Samples
	}
	return 0
}

// callSiteProfile returns the profile of the innermost inlined function at
// a call site, nested under its inlined callers.
func (g *stackGenerator) callSiteProfile(bi int, site aggregate.Loc) *sampleprof.FunctionSamples {
	cfs := g.frames(site)
	f := g.profiles[bi].Function(cfs[0].Func)
	for i := 1; i < len(cfs); i++ {
		f = f.Inlinee(g.location(bi, cfs[i-1]), cfs[i].Func)
	}
	return f
}

func (g *stackGenerator) innermost(site aggregate.Loc) symbolize.Frame {
	cfs := g.frames(site)
	return cfs[len(cfs)-1]
}
