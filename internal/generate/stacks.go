package generate

import (
	"iter"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// StackBinary is one profiled binary of call-stack input: its symbolizer
// (DWARF frames only, as llvm-profgen sees code), its code and options.
type StackBinary struct {
	Sym interface {
		Frames(addr uint64, dst []symbolize.Frame) []symbolize.Frame
		FuncRangeAt(addr uint64) *symbolize.FuncRange
	}
	// Code is the binary's decoded code (*binary.File): the entry blocks
	// of functions, for CallCountsEstimate.
	Code interface {
		Insts(first, last uint64) iter.Seq[binary.Inst]
		DirectTarget(in binary.Inst) (uint64, bool)
	}
	Opts       Options
	CallCounts CallCounts
	// BodyPerInstruction counts a line's body samples per instruction of
	// the line (see perInstruction), not as the line's hits.
	BodyPerInstruction bool
	// BodyByBlocks spreads the hits of each basic block evenly over its
	// instructions (see byBlocks) before lines are counted.
	BodyByBlocks bool
	// ZeroUnsampled gives the lines of sampled functions that no sample
	// hit an explicit zero count (see zeroUnsampled).
	ZeroUnsampled bool
	// BodyBlockMax raises the lines of each sampled basic block to the
	// block's largest line count (see blockMax).
	BodyBlockMax bool
}

// CallCounts says how call-target and head counts are made from stacks.
type CallCounts uint8

const (
	// CallCountsEstimate estimates execution counts (see StackProfiles).
	CallCountsEstimate CallCounts = iota
	// CallCountsInclusive takes the inclusive sample counts below each
	// call, as profgen did before (time, not calls).
	CallCountsInclusive
	// CallCountsNone writes no call targets and no head samples: body
	// samples only, as AutoFDO without LBR.
	CallCountsNone
	// CallCountsExecutions estimates calls as CallCountsEstimate does,
	// but in executions (see addExecutionCalls): each call target is
	// the calls at the site times the instructions of the site's line,
	// the hits such a line would get.
	CallCountsExecutions
)

// StackProfiles turns aggregated call stacks into one LLVM sample profile
// per profiled binary: AutoFDO's non-LBR mode (sample counts at the
// instruction pointer) with what the call chains add. For a stack seen n
// times:
//   - body: n at the leaf's innermost inlined frame (line offset from the
//     function's start line, base discriminator), nested under the inlined
//     callers as LLVM's inlinee profiles; the TotalSamples of every frame on
//     that inline path grows by n. Counts of one line are summed (IP samples,
//     unlike LBR ranges, are hits, not executions).
//   - then, as chosen by the StackBinary: the other lines of the sampled
//     functions at zero (ZeroUnsampled), and the lines of each sampled
//     basic block raised to its most hit line (BodyBlockMax), the counts
//     the sample loader should see where one block's few samples fell on
//     some of its lines only.
//   - call edges: each caller frame (the return address - 1, inside the
//     call instruction) calls the function named by the callee's outermost
//     frame, at the caller's innermost inlined frame.
//
// Stack samples count time, not calls, so the counts of calls are
// estimated in the units of the body samples (CallCountsEstimate): a
// function's head samples are the weight the sample loader gives its entry
// block (the largest body count among the lines of the instructions up to
// the first branch), and those calls are shared among its call sites in
// proportion to the samples spent below each (a site's share of the
// function's inclusive samples). A call site's body count is at least the
// sum of its targets, as llvm-profgen makes it.
func StackProfiles(counts *aggregate.StackCounts, bins []StackBinary) []*sampleprof.Profile {
	g := &stackGenerator{counts: counts, bins: bins, cache: map[aggregate.Loc][]symbolize.Frame{}}
	g.profiles = make([]*sampleprof.Profile, len(bins))
	g.calls = make([]*callGraph, len(bins))
	for i := range g.profiles {
		g.profiles[i] = sampleprof.NewProfile()
		g.profiles[i].FSDiscriminators = bins[i].Opts.FSDiscriminators
		g.calls[i] = newCallGraph()
	}
	g.sampled = make([]map[uint64]*symbolize.Function, len(bins))
	for i := range g.sampled {
		g.sampled[i] = map[uint64]*symbolize.Function{}
	}
	g.hits = make([]map[uint64]uint64, len(bins))
	for i := range g.hits {
		g.hits[i] = map[uint64]uint64{}
	}
	g.prefetch()
	for _, s := range counts.Stacks {
		g.addStack(s)
	}
	for i := range bins {
		if bins[i].ZeroUnsampled {
			g.zeroUnsampled(i, g.sampled[i])
		}
		if bins[i].BodyBlockMax {
			g.blockMax(i, g.sampled[i])
		}
		if bins[i].BodyByBlocks {
			g.byBlocks(i, g.sampled[i])
		}
		if bins[i].BodyPerInstruction {
			g.perInstruction(i, g.sampled[i])
		}
		g.addCalls(i)
	}
	return g.profiles
}

type stackGenerator struct {
	counts   *aggregate.StackCounts
	bins     []StackBinary
	profiles []*sampleprof.Profile
	calls    []*callGraph
	cache    map[aggregate.Loc][]symbolize.Frame
	sampled  []map[uint64]*symbolize.Function // functions with body samples, by first range start
	hits     []map[uint64]uint64              // samples at each leaf address, per binary (blocks, executions)
}

func (g *stackGenerator) binary(loc aggregate.Loc) int { return g.counts.Objects[loc.Obj].Binary }

// frames symbolizes loc; nil outside the profiled binaries.
func (g *stackGenerator) frames(loc aggregate.Loc) []symbolize.Frame {
	bi := g.binary(loc)
	if bi < 0 {
		return nil
	}
	fs, ok := g.cache[loc]
	if !ok {
		fs = g.bins[bi].Sym.Frames(loc.Addr, nil)
		g.cache[loc] = fs
	}
	return fs
}

// prefetch hands each binary's Sym that can load what a batch of
// addresses needs up front (*symbolize.Table: Prefetch) the addresses of
// the binary's frames.
func (g *stackGenerator) prefetch() {
	addrs := g.counts.BinaryAddrs(len(g.bins))
	for i, b := range g.bins {
		if p, ok := b.Sym.(interface{ Prefetch(addrs []uint64) }); ok && len(addrs[i]) > 0 {
			p.Prefetch(addrs[i])
		}
	}
}

func (g *stackGenerator) addStack(s *aggregate.Stack) {
	leaf := s.Locs[0]
	if fs := g.frames(leaf); len(fs) > 0 {
		g.addBody(g.binary(leaf), fs, s.Count)
		if b := g.bins[g.binary(leaf)]; b.BodyByBlocks || b.BodyBlockMax || b.CallCounts == CallCountsExecutions {
			g.hits[g.binary(leaf)][leaf.Addr] += s.Count
		}
		if r := g.bins[g.binary(leaf)].Sym.FuncRangeAt(leaf.Addr); r != nil && len(r.Func.Ranges) > 0 {
			g.sampled[g.binary(leaf)][r.Func.Ranges[0][0]] = r.Func
		}
		g.calls[g.binary(leaf)].noteEntry(g.bins[g.binary(leaf)].Sym, fs[0].Func, leaf.Addr)
	}
	for i := 1; i <= len(s.Locs); i++ {
		var caller aggregate.Loc
		if i < len(s.Locs) {
			caller = s.Locs[i]
		} else {
			caller = aggregate.Loc{Obj: -1}
		}
		g.addEdge(caller, s.Locs[i-1], s.Count)
	}
}

// addBody counts n at the innermost frame of fs, nested under its inlined
// callers, adding n to every frame's total.
func (g *stackGenerator) addBody(bi int, fs []symbolize.Frame, n uint64) {
	f := g.profiles[bi].Function(fs[0].Func)
	f.TotalSamples += n
	for i := 1; i < len(fs); i++ {
		f = f.Inlinee(g.location(bi, fs[i-1]), fs[i].Func)
		f.TotalSamples += n
	}
	f.Record(g.location(bi, fs[len(fs)-1])).Samples += n
}

// addEdge notes n samples below a call from caller (a call instruction;
// Obj -1 for none: the callee is the stack's root) to the function at
// callee.
func (g *stackGenerator) addEdge(caller, callee aggregate.Loc, n uint64) {
	tfs := g.frames(callee)
	bi := g.binary(callee)
	if len(tfs) == 0 || g.counts.Objects[callee.Obj].UnknownSite && callee.Addr == 0 {
		return
	}
	cg := g.calls[bi]
	target := tfs[0].Func
	cg.noteEntry(g.bins[bi].Sym, target, callee.Addr)
	cg.inclusive[target] += n
	if caller.Obj < 0 || g.binary(caller) != bi || len(g.frames(caller)) == 0 {
		return
	}
	if g.counts.Objects[caller.Obj].UnknownSite { // a caller known without its call site
		cg.unknownSite[target] += n
		return
	}
	cg.edges[callEdge{caller, target}] += n
}

func (g *stackGenerator) location(bi int, f symbolize.Frame) sampleprof.LineLocation {
	return lineLocation(f, g.bins[bi].Opts.FSDiscriminators)
}
