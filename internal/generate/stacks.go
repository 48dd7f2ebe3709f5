package generate

import (
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// StackBinary is one profiled binary of call-stack input: its symbolizer
// (DWARF frames only, as llvm-profgen sees code) and options.
type StackBinary struct {
	Sym interface {
		Frames(addr uint64, dst []symbolize.Frame) []symbolize.Frame
	}
	Opts Options
}

// StackProfiles turns aggregated call stacks into one LLVM sample profile
// per profiled binary: AutoFDO's non-LBR mode (sample counts at the
// instruction pointer) with what the call chains add. For a stack seen n
// times:
//   - body: n at the leaf's innermost inlined frame (line offset from the
//     function's start line, base discriminator), nested under the inlined
//     callers as LLVM's inlinee profiles; the TotalSamples of every frame on
//     that inline path grows by n. Counts of one line are summed (IP samples,
//     unlike LBR ranges, are hits, not executions).
//   - call sites: each caller frame (the return address - 1, inside the
//     call instruction) adds n to the call target named by the callee's
//     outermost frame, at the caller's innermost inlined frame.
//   - head samples: the callee of each such call edge gets n.
//
// Stack samples cannot count calls: call-target and head counts are
// inclusive sample counts (how much time is spent below that call).
func StackProfiles(counts *aggregate.StackCounts, bins []StackBinary) []*sampleprof.Profile {
	g := &stackGenerator{counts: counts, bins: bins, cache: map[aggregate.Loc][]symbolize.Frame{}}
	g.profiles = make([]*sampleprof.Profile, len(bins))
	for i := range g.profiles {
		g.profiles[i] = sampleprof.NewProfile()
		g.profiles[i].FSDiscriminators = bins[i].Opts.FSDiscriminators
	}
	for _, s := range counts.Stacks {
		g.addStack(s)
	}
	return g.profiles
}

type stackGenerator struct {
	counts   *aggregate.StackCounts
	bins     []StackBinary
	profiles []*sampleprof.Profile
	cache    map[aggregate.Loc][]symbolize.Frame
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

func (g *stackGenerator) addStack(s *aggregate.Stack) {
	leaf := s.Locs[0]
	if fs := g.frames(leaf); len(fs) > 0 {
		g.addBody(g.binary(leaf), fs, s.Count)
	}
	for i := 1; i < len(s.Locs); i++ {
		g.addCall(s.Locs[i], s.Locs[i-1], s.Count)
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

// addCall counts n for the call from caller (a call instruction) to the
// function at callee, when both are in the same profiled binary.
func (g *stackGenerator) addCall(caller, callee aggregate.Loc, n uint64) {
	cfs, tfs := g.frames(caller), g.frames(callee)
	bi := g.binary(caller)
	if len(cfs) == 0 || len(tfs) == 0 || bi != g.binary(callee) {
		return
	}
	p := g.profiles[bi]
	if g.counts.Objects[caller.Obj].UnknownSite { // a caller known without its call site
		p.Function(tfs[0].Func).HeadSamples += n
		return
	}
	f := p.Function(cfs[0].Func)
	for i := 1; i < len(cfs); i++ {
		f = f.Inlinee(g.location(bi, cfs[i-1]), cfs[i].Func)
	}
	target := tfs[0].Func
	f.AddCallTarget(g.location(bi, cfs[len(cfs)-1]), target, n)
	p.Function(target).HeadSamples += n
}

func (g *stackGenerator) location(bi int, f symbolize.Frame) sampleprof.LineLocation {
	return lineLocation(f, g.bins[bi].Opts.FSDiscriminators)
}
