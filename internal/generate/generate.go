// Package generate turns aggregated LBR counters into an LLVM sample
// profile (non context-sensitive), with llvm-profgen 19's semantics.
//
// In: range and branch counters in the binary's canonical addresses, the
// binary's decoded code, and its symbolizer. Out: a sampleprof.Profile.
//
// Ranges give body samples: every instruction of a range is symbolized to
// its inline stack; each frame's total grows by count × instruction size,
// and the leaf's body record at (line offset, base discriminator) keeps the
// largest count × duplication factor. Branches that land on a function
// entry give call targets at the source and head samples at the callee.
//
// Binaries with pseudo probes (clang -fpseudo-probe-for-profiling) get
// probe-based profiles instead (probe.go): counts per probe rather than per
// line, CFG checksums, the inline tree of the probes.
package generate

import (
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/record"

	"iter"
	"strings"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// Range, Branch and Counters are the aggregated LBR samples of one binary
// (a Range's End is the address of its last instruction).
type (
	Range    = aggregate.Range
	Counters = aggregate.Counters
)

// Code is the decoded machine code of the profiled binary.
type Code interface {
	// Insts yields the address and size of each instruction starting in
	// [first, last], in address order.
	Insts(first, last uint64) iter.Seq2[uint64, uint64]
}

// Symbolizer maps addresses to inline stacks and function ranges.
type Symbolizer interface {
	Frames(addr uint64, dst []symbolize.Frame) []symbolize.Frame
	FuncRangeAt(addr uint64) *symbolize.FuncRange
	FuncRangeStartingAt(addr uint64) *symbolize.FuncRange
}

// Options tune generation.
type Options struct {
	// FSDiscriminators tells that the binary carries flow-sensitive
	// discriminators (it defines __llvm_fs_discriminator__): they are kept
	// as they are, with no duplication factor.
	FSDiscriminators bool

	// llvm-profgen's generation flags. SumBodySamples (--leading-ip-only)
	// adds the counts of a line's instructions instead of keeping the
	// largest one scaled by the duplication factor. ZeroRanges
	// (--fill-zero-for-all-funcs: every function's ranges, [start, end))
	// get zero body samples where nothing was sampled. UpdateTotalSamples
	// (--update-total-samples) makes each total the sum of the function's
	// body and inlinee samples.
	SumBodySamples     bool
	ZeroRanges         [][2]uint64
	UpdateTotalSamples bool

	// DataAccesses are the vtable loads of --data-access-perftrace: each
	// counts at its instruction's location, in the profile of its inline
	// frame (LLVM 22's vtable type profiles).
	DataAccesses []DataAccess
}

// DataAccess counts the loads from vtable VTable by the instruction at
// (canonical) address IP.
type DataAccess struct {
	IP     uint64
	VTable string
	Count  uint64
}

// FSDiscriminatorSymbol is the symbol of binaries built with flow-sensitive
// discriminators.
const FSDiscriminatorSymbol = "__llvm_fs_discriminator__"

// Profile builds the sample profile of c.
func Profile(c Counters, code Code, sym Symbolizer, opts Options) *sampleprof.Profile {
	g := &generator{prof: sampleprof.NewProfile(), code: code, sym: sym, fs: opts.FSDiscriminators, sum: opts.SumBodySamples}
	for _, r := range disjointRanges(withZeroRanges(c.Ranges, sym, opts.ZeroRanges)) {
		g.addRange(r)
	}
	for b, n := range c.Branches {
		g.addBranch(b, n)
	}
	for _, d := range opts.DataAccesses {
		g.addDataAccess(d)
	}
	for _, f := range g.prof.Functions {
		updateCallsiteSamples(f)
		if opts.UpdateTotalSamples {
			sampleprof.UpdateTotalSamples(f)
		}
	}
	return g.prof
}

type generator struct {
	prof   *sampleprof.Profile
	code   Code
	sym    Symbolizer
	frames []symbolize.Frame
	fs     bool // flow-sensitive discriminators
	sum    bool // body samples are summed, not the largest kept
	// The inline stack of the previous instruction and the profile of each
	// of its frames: consecutive instructions mostly share them.
	lastFrames   []symbolize.Frame
	lastProfiles []*sampleprof.FunctionSamples
}

// addRange adds the samples of every instruction in r.
func (g *generator) addRange(r countedRange) {
	if r.start > r.end {
		return
	}
	for addr, size := range g.code.Insts(r.start, r.end) {
		g.addInstruction(addr, size, r.count)
	}
}

func (g *generator) addInstruction(addr, size, count uint64) {
	g.frames = g.sym.Frames(addr, g.frames)
	if len(g.frames) == 0 {
		return
	}
	leaf := g.leafProfile(g.frames, count*size)
	loc := g.frames[len(g.frames)-1]
	if g.sum {
		leaf.Record(g.location(loc)).Samples += count
		return
	}
	n := count * uint64(g.duplicationFactor(loc.Discriminator))
	rec := leaf.Record(g.location(loc))
	if rec.Samples < n {
		rec.Samples = n
	}
}

// addDataAccess counts d's vtable at its instruction's location, in the
// profile of the innermost frame there; an instruction no DWARF covers
// counts nothing.
func (g *generator) addDataAccess(d DataAccess) {
	g.frames = g.sym.Frames(d.IP, g.frames)
	if len(g.frames) == 0 {
		return
	}
	leaf := g.leafProfile(g.frames, 0)
	m := leaf.VTableCounts(g.location(g.frames[len(g.frames)-1]))
	m[d.VTable] += d.Count
}

// leafProfile returns the profile of the innermost frame, nested under its
// inlining callers, adding total to every frame on the way.
func (g *generator) leafProfile(frames []symbolize.Frame, total uint64) *sampleprof.FunctionSamples {
	if !g.sameContext(frames, g.lastFrames) {
		g.lookUpProfiles(frames)
	}
	for _, f := range g.lastProfiles {
		f.TotalSamples += total
	}
	return g.lastProfiles[len(g.lastProfiles)-1]
}

// lookUpProfiles finds (creating them) the profiles of frames and remembers
// them.
func (g *generator) lookUpProfiles(frames []symbolize.Frame) {
	g.lastFrames = append(g.lastFrames[:0], frames...)
	f := g.prof.Function(frames[0].Func)
	g.lastProfiles = append(g.lastProfiles[:0], f)
	for i := 1; i < len(frames); i++ {
		f = f.Inlinee(g.location(frames[i-1]), frames[i].Func)
		g.lastProfiles = append(g.lastProfiles, f)
	}
}

// sameContext tells whether two inline stacks have the same functions and
// call sites (the leaf's own line may differ).
func (g *generator) sameContext(a, b []symbolize.Frame) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Func != b[i].Func {
			return false
		}
		if i < len(a)-1 && g.location(a[i]) != g.location(b[i]) {
			return false
		}
	}
	return true
}

// location is the profile key of a frame: its line offset and base
// discriminator.
func (g *generator) location(f symbolize.Frame) sampleprof.LineLocation {
	return lineLocation(f, g.fs)
}

// lineLocation is the profile key of a frame: its line offset and its
// discriminator, the base one unless the binary has flow-sensitive ones.
func lineLocation(f symbolize.Frame, fs bool) sampleprof.LineLocation {
	d := f.Discriminator
	if !fs {
		d = symbolize.BaseDiscriminator(d)
	}
	return sampleprof.LineLocation{LineOffset: f.LineOffset(), Discriminator: d}
}

func (g *generator) duplicationFactor(d uint32) uint32 {
	if g.fs {
		return 1
	}
	return symbolize.DuplicationFactor(d)
}

// addBranch counts a branch landing on a function entry as a call from the
// source's leaf frame and as head samples of the callee.
func (g *generator) addBranch(b record.Branch, n uint64) {
	r := g.sym.FuncRangeStartingAt(b.To)
	if r == nil || !r.IsEntry {
		return
	}
	callee := symbolize.CanonicalName(r.Func.Name)
	g.frames = g.sym.Frames(b.From, g.frames)
	if len(g.frames) > 0 {
		leaf := g.leafProfile(g.frames, 0)
		leaf.AddCallTarget(g.location(g.frames[len(g.frames)-1]), callee, n)
	}
	g.prof.Function(callee).HeadSamples += n
}

// updateCallsiteSamples raises the body count of each call site to the sum
// of its call targets: calls seen in branches executed at least that often.
func updateCallsiteSamples(f *sampleprof.FunctionSamples) {
	for _, r := range f.Body {
		var sum uint64
		for _, n := range r.CallTargets {
			sum += n
		}
		if sum > r.Samples {
			r.Samples = sum
		}
	}
}

// ambiguousPrefixes name compiler-generated functions whose profiles cannot
// be matched reliably (one per translation unit, same name).
var ambiguousPrefixes = []string{"__cxx_global_var_init", "__tls_init"}

func isAmbiguous(name string) bool {
	for _, p := range ambiguousPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// Finishing is what llvm-profgen does to a profile without contexts once
// it is built (ProfileGenerator::postProcessProfiles), beside the density.
type Finishing struct {
	// TrimCold (--trim-cold-profile) drops the functions whose total is
	// below the cold threshold: ColdCount when set
	// (--profile-summary-cold-count), else the summary's.
	TrimCold  bool
	ColdCount *uint64
}

// Finish trims cold functions (on the summary of the whole profile) and
// then drops the ambiguous ones, in llvm-profgen's order.
func Finish(p *sampleprof.Profile, opts Finishing) {
	if opts.TrimCold {
		trimCold(p, coldThreshold(p, opts.ColdCount))
	}
	DropAmbiguous(p)
}

func coldThreshold(p *sampleprof.Profile, count *uint64) uint64 {
	if count != nil {
		return *count
	}
	return sampleprof.ComputeSummary(p).ColdThreshold()
}

// trimCold drops the top-level functions whose total is below threshold.
func trimCold(p *sampleprof.Profile, threshold uint64) {
	for name, f := range p.Functions {
		if f.TotalSamples < threshold {
			delete(p.Functions, name)
		}
	}
}

// DropAmbiguous removes ambiguous functions, top-level and inlined.
func DropAmbiguous(p *sampleprof.Profile) {
	for name, f := range p.Functions {
		if isAmbiguous(name) {
			delete(p.Functions, name)
			continue
		}
		dropAmbiguousInlinees(f)
	}
}

func dropAmbiguousInlinees(f *sampleprof.FunctionSamples) {
	for _, callees := range f.Callsites {
		for name, c := range callees {
			if isAmbiguous(name) {
				delete(callees, name)
				continue
			}
			dropAmbiguousInlinees(c)
		}
	}
}
