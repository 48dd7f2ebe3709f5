// Package stackgen turns aggregated call-stack samples into LLVM sample
// profiles: AutoFDO's non-LBR mode (sample counts at the instruction
// pointer) with what the call chains add.
//
// In: callstack.Counts and, per profiled binary, a Symbolizer giving the
// inline stack of an address. Out: one sampleprof.Profile per binary.
//
// For a sample with count n:
//   - body: n at the leaf IP's innermost inlined frame (line offset from
//     the function's start line, base discriminator), nested under the
//     inlined callers as LLVM's inlinee profiles; the TotalSamples of every
//     frame on that inline path grows by n. Counts of one line are summed
//     (IP samples, unlike LBR ranges, are hits, not executions).
//   - call sites: each caller frame of the chain (the return address - 1,
//     inside the call instruction) adds n to the call target named by the
//     callee's outermost frame, at the caller's innermost inlined frame.
//   - head samples: the callee of each such call edge gets n.
//
// Stack samples cannot count calls: call-target and head counts are
// inclusive sample counts (how much time is spent below that call), which
// is what the sample loader's hotness decisions (inlining, indirect call
// promotion, function entry counts) are made from.
package stackgen

import (
	"github.com/profgen/profgen/internal/callstack"
	"github.com/profgen/profgen/internal/sampleprof"
)

// Frame is one level of an inline stack.
type Frame struct {
	Func          string // linkage name
	File          string // source file, "" when unknown
	Line          uint32
	StartLine     uint32 // DW_AT_decl_line of Func
	Discriminator uint32 // base discriminator
}

// LineOffset is LLVM's line offset, wrapped to 16 bits.
func (f Frame) LineOffset() uint32 { return (f.Line - f.StartLine) & 0xffff }

// Symbolizer maps a canonical address of one binary to its inline stack,
// outermost frame first; empty when nothing covers the address.
type Symbolizer interface {
	Frames(addr uint64) []Frame
}

// Generate builds one profile per profiled binary; syms[i] symbolizes
// binary i (as numbered in counts.Objects[].Binary).
func Generate(counts *callstack.Counts, syms []Symbolizer) []*sampleprof.Profile {
	g := &generator{counts: counts, syms: syms, cache: map[callstack.Loc][]Frame{}}
	g.profiles = make([]*sampleprof.Profile, len(syms))
	for i := range g.profiles {
		g.profiles[i] = sampleprof.NewProfile()
	}
	for _, s := range counts.Stacks {
		g.addStack(s)
	}
	return g.profiles
}

type generator struct {
	counts   *callstack.Counts
	syms     []Symbolizer
	profiles []*sampleprof.Profile
	cache    map[callstack.Loc][]Frame
}

// frames symbolizes loc; nil outside the profiled binaries.
func (g *generator) frames(loc callstack.Loc) []Frame {
	bi := g.counts.Objects[loc.Obj].Binary
	if bi < 0 {
		return nil
	}
	fs, ok := g.cache[loc]
	if !ok {
		fs = g.syms[bi].Frames(loc.Addr)
		g.cache[loc] = fs
	}
	return fs
}

func (g *generator) binary(loc callstack.Loc) int { return g.counts.Objects[loc.Obj].Binary }

func (g *generator) addStack(s *callstack.Stack) {
	leaf := s.Locs[0]
	if fs := g.frames(leaf); len(fs) > 0 {
		g.addBody(g.profiles[g.binary(leaf)], fs, s.Count)
	}
	for i := 1; i < len(s.Locs); i++ {
		g.addCall(s.Locs[i], s.Locs[i-1], s.Count)
	}
}

// addBody counts n at the innermost frame of fs, nested under its inlined
// callers, adding n to every frame's total.
func (g *generator) addBody(p *sampleprof.Profile, fs []Frame, n uint64) {
	f := p.Function(fs[0].Func)
	f.TotalSamples += n
	for i := 1; i < len(fs); i++ {
		f = f.Inlinee(location(fs[i-1]), fs[i].Func)
		f.TotalSamples += n
	}
	f.Record(location(fs[len(fs)-1])).Samples += n
}

// addCall counts n for the call from caller (a call instruction) to the
// function at callee, when both are in the same profiled binary.
func (g *generator) addCall(caller, callee callstack.Loc, n uint64) {
	cfs, tfs := g.frames(caller), g.frames(callee)
	if len(cfs) == 0 || len(tfs) == 0 || g.binary(caller) != g.binary(callee) {
		return
	}
	p := g.profiles[g.binary(caller)]
	f := p.Function(cfs[0].Func)
	for i := 1; i < len(cfs); i++ {
		f = f.Inlinee(location(cfs[i-1]), cfs[i].Func)
	}
	target := tfs[0].Func
	f.AddCallTarget(location(cfs[len(cfs)-1]), target, n)
	p.Function(target).HeadSamples += n
}

func location(f Frame) sampleprof.LineLocation {
	return sampleprof.LineLocation{LineOffset: f.LineOffset(), Discriminator: f.Discriminator}
}
