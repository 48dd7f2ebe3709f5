// Package pprofout turns aggregated call-stack samples into a pprof profile
// (github.com/google/pprof/profile), the input of `go tool pprof` and of Go's
// profile-guided optimization (go build -pgo).
//
// In: aggregate.StackCounts and, per profiled binary, its mapping facts
// and a Symbolizer (DWARF inline frames, ELF symbols where there is no
// DWARF, PLT stubs as name@plt). Out: a *profile.Profile with sample types samples/count (and
// cpu/nanoseconds when every sample comes from a clock event with a period),
// one Mapping per binary with its build id, and symbolized Locations with
// their inlined frames. Functions carry the name (demangled; a PLT stub
// its target demangled and @plt, as perf report -v names it), the system
// name (linkage name), the file and the start line (DW_AT_decl_line), which
// Go's PGO needs to key call edges by line offset.
//
// Frames of the kernel and of other DSOs are kept, each DSO its own Mapping,
// named by perf's symbol names; a frame perf placed in no mapping
// (aggregate.UnknownDSO) is a Location with its address alone. Frames of
// compiler-generated wrappers (Go's method-value -fm, promoted-method and
// go-statement wrappers) are folded into their callers as Go's own
// profiler folds them, unless a Binary says KeepWrappers; kernel and vDSO
// frames above a binary's frames are left out when it says FoldKernel, and
// the frames of runtime.goexit (the root of every goroutine's stack, which
// Go's profiler leaves out) when it says OmitGoexit. A frame that stack
// repair inferred without its call site is its function at line 0.
package pprofout

import (
	"strings"

	"github.com/google/pprof/profile"
	"github.com/ianlancetaylor/demangle"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/slab"
	"github.com/profgen/profgen/internal/symbolize"
)

// Symbolizer maps an address of a binary to its inline stack, outermost
// frame first. *symbolize.Table's FramesOrSymbol is one.
type Symbolizer interface {
	FramesOrSymbol(addr uint64, dst []symbolize.Frame) []symbolize.Frame
}

// Prefetcher is a Symbolizer that can load up front, all at once, what
// the symbolization of a batch of addresses needs (*symbolize.Table
// reads the DWARF units that hold them on several goroutines).
type Prefetcher interface {
	Prefetch(addrs []uint64)
}

// Binary describes one profiled binary.
type Binary struct {
	Path    string
	BuildID string // hex
	// Start, Limit and Offset describe the executable segments in the
	// binary's own (link-time) address space.
	Start, Limit, Offset uint64
	Symbolizer           Symbolizer
	// KeepWrappers keeps the frames of compiler-generated wrappers
	// (symbolize.Frame.Wrapper), which are otherwise folded as Go's
	// profiler folds them.
	KeepWrappers bool
	// FoldKernel leaves out the kernel and vDSO frames above this
	// binary's frames, their samples going to the binary's innermost
	// frame, as Go's profiler records them (a SIGPROF names the user PC).
	FoldKernel bool
	// OmitGoexit leaves out this binary's frames of runtime.goexit, as
	// Go's profiler does (runtime/pprof's allFrames): a goroutine's stack
	// then starts at its entry function, and a sample in goexit alone
	// keeps its weight with no location.
	OmitGoexit bool
}

// Build returns the pprof profile of counts.
func Build(counts *aggregate.StackCounts, bins []Binary) *profile.Profile {
	b := &builder{
		counts:    counts,
		bins:      bins,
		p:         &profile.Profile{},
		funcs:     map[funcKey]*profile.Function{},
		objMaps:   map[int32]*profile.Mapping{},
		clockOnly: isClock(counts.Events),
	}
	for fold := range b.locs {
		b.locs[fold] = make([]map[uint64]cachedLoc, len(counts.Objects))
	}
	b.sampleTypes()
	if counts.LastNS > counts.FirstNS {
		b.p.DurationNanos = int64(counts.LastNS - counts.FirstNS)
	}
	b.binaryMappings()
	b.prefetch()
	b.addStacks()
	return b.p
}

type builder struct {
	counts *aggregate.StackCounts
	bins   []Binary
	p      *profile.Profile
	// locs holds the locations made so far, by fold (with wrapper frames
	// folded: 1), object and address.
	locs      [2][]map[uint64]cachedLoc
	funcs     map[funcKey]*profile.Function
	binMaps   []*profile.Mapping
	objMaps   map[int32]*profile.Mapping
	clockOnly bool
	// locSlab and lineSlab hold the locations made and their lines: a
	// profile of many locations is then a few hundred allocations.
	locSlab  slab.Slab[profile.Location]
	lineSlab slab.Slab[profile.Line]
	spans    []span // by object, made when first needed
}

// cachedLoc is a location made, whether its outermost function is one
// whose wrapper callers Go keeps in stacks (isPanic), and whether its
// innermost function is runtime.goexit.
type cachedLoc struct {
	loc    *profile.Location
	panics bool
	goexit bool
}

// funcKey is what tells functions apart: a function's Name is its
// SystemName demangled.
type funcKey struct {
	systemName, filename string
	startLine            int64
}

// prefetch hands each binary's Symbolizer that is a Prefetcher the
// addresses of the binary's frames (in stack order, repeats included).
func (b *builder) prefetch() {
	addrs := b.counts.BinaryAddrs(len(b.bins))
	for i, bin := range b.bins {
		if p, ok := bin.Symbolizer.(Prefetcher); ok && len(addrs[i]) > 0 {
			p.Prefetch(addrs[i])
		}
	}
}

// isClock reports whether all samples come from software clock events,
// whose period is in nanoseconds.
func isClock(events map[string]uint64) bool {
	if len(events) == 0 {
		return false
	}
	for e := range events {
		switch e {
		case "cpu-clock", "task-clock", "cpu-clock:u", "task-clock:u", "cpu-clock:k", "task-clock:k":
		default:
			return false
		}
	}
	return true
}

func (b *builder) sampleTypes() {
	b.p.SampleType = []*profile.ValueType{{Type: "samples", Unit: "count"}}
	if b.clockOnly {
		b.p.SampleType = append(b.p.SampleType, &profile.ValueType{Type: "cpu", Unit: "nanoseconds"})
		b.p.PeriodType = &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}
		b.p.Period = b.commonPeriod()
	}
}

// commonPeriod is the mean sample period, for the profile's Period field.
func (b *builder) commonPeriod() int64 {
	var n, sum uint64
	for _, s := range b.counts.Stacks {
		n += s.Count
		sum += s.Period
	}
	if n == 0 {
		return 0
	}
	return int64(sum / n)
}

func (b *builder) binaryMappings() {
	for _, bin := range b.bins {
		m := &profile.Mapping{
			ID: uint64(len(b.p.Mapping) + 1), Start: bin.Start, Limit: bin.Limit, Offset: bin.Offset,
			File: bin.Path, BuildID: bin.BuildID,
			HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true,
		}
		b.p.Mapping = append(b.p.Mapping, m)
		b.binMaps = append(b.binMaps, m)
	}
}

// addStacks adds a sample per stack, their values and location lists cut
// from a few large slices (one allocation each instead of three per
// sample).
func (b *builder) addStacks() {
	stacks := b.counts.Stacks
	nvalues, nlocs := 1, 0
	if b.clockOnly {
		nvalues = 2
	}
	for _, s := range stacks {
		nlocs += len(s.Locs)
	}
	samples := make([]profile.Sample, len(stacks))
	values := make([]int64, 0, nvalues*len(stacks))
	locs := make([]*profile.Location, 0, nlocs)
	b.p.Sample = make([]*profile.Sample, len(stacks))
	for i, s := range stacks {
		ps := &samples[i]
		values = append(values, int64(s.Count))
		if b.clockOnly {
			values = append(values, int64(s.Period))
		}
		ps.Value = values[len(values)-nvalues : len(values) : len(values)]
		start := len(locs)
		locs = b.appendLocations(locs, s.Locs)
		ps.Location = locs[start:len(locs):len(locs)]
		b.p.Sample[i] = ps
	}
}

// appendLocations appends the locations of a stack's frames to dst.
func (b *builder) appendLocations(dst []*profile.Location, locs []aggregate.Loc) []*profile.Location {
	calleePanics := false
	for _, l := range b.userStack(locs) {
		c := b.location(l, b.folds(l) && !calleePanics)
		calleePanics = c.panics
		if c.loc == nil || c.goexit && b.omitsGoexit(l) {
			continue // a wrapper, folded; runtime.goexit, left out
		}
		dst = append(dst, c.loc)
	}
	return dst
}

// userStack returns locs without their leading kernel and vDSO frames
// when the first frame below them is in a binary that folds them.
func (b *builder) userStack(locs []aggregate.Loc) []aggregate.Loc {
	for i, l := range locs {
		o := b.counts.Objects[l.Obj]
		if o.Binary >= 0 {
			if b.bins[o.Binary].FoldKernel {
				return locs[i:]
			}
			return locs
		}
		if !o.Kernel && o.Path != "[vdso]" {
			return locs
		}
	}
	return locs
}

// folds reports whether wrapper frames at l are folded: Go's profiler
// leaves wrappers out of stacks (runtime.tracebackPCs), the frame of the
// wrapper and its self time going to its caller.
func (b *builder) folds(l aggregate.Loc) bool {
	bi := b.counts.Objects[l.Obj].Binary
	return bi >= 0 && !b.bins[bi].KeepWrappers && !b.counts.Objects[l.Obj].UnknownSite
}

// omitsGoexit reports whether l is in a binary that leaves out the frames
// of runtime.goexit.
func (b *builder) omitsGoexit(l aggregate.Loc) bool {
	bi := b.counts.Objects[l.Obj].Binary
	return bi >= 0 && b.bins[bi].OmitGoexit
}

// isGoexit reports whether fn is runtime.goexit: its name in the pclntab
// and DWARF, or its ELF symbol (with the ABI suffix of assembly code).
func isGoexit(fn string) bool {
	return fn == "runtime.goexit" || fn == "runtime.goexit.abi0"
}

// isPanic reports the functions whose wrapper callers Go keeps in stacks
// (runtime.elideWrapperCalling).
func isPanic(fn string) bool {
	return fn == "runtime.gopanic" || fn == "runtime.sigpanic" || fn == "runtime.panicwrap"
}

// location returns the location of l; with fold, without the lines of
// wrapper functions, nil when only wrappers are left.
func (b *builder) location(l aggregate.Loc, fold bool) cachedLoc {
	return b.cached(l, fold, func() *profile.Location { return b.newLocation(l, fold) })
}

// cached returns the location of l (with or without folding) made
// before, or else made by newLoc and kept.
func (b *builder) cached(l aggregate.Loc, fold bool, newLoc func() *profile.Location) cachedLoc {
	f := 0
	if fold {
		f = 1
	}
	m := b.locs[f][l.Obj]
	if c, ok := m[l.Addr]; ok {
		return c
	}
	if m == nil {
		m = map[uint64]cachedLoc{}
		b.locs[f][l.Obj] = m
	}
	c := cachedLoc{loc: newLoc()}
	if c.loc != nil && len(c.loc.Line) > 0 {
		c.panics = isPanic(c.loc.Line[len(c.loc.Line)-1].Function.SystemName)
		c.goexit = isGoexit(c.loc.Line[0].Function.SystemName)
	}
	m[l.Addr] = c
	return c
}

func (b *builder) newLocation(l aggregate.Loc, fold bool) *profile.Location {
	o := b.counts.Objects[l.Obj]
	var fs []symbolize.Frame
	if o.Binary >= 0 && !o.UnknownSite {
		fs = b.bins[o.Binary].Symbolizer.FramesOrSymbol(l.Addr, nil)
		if fold {
			kept := withoutWrappers(fs)
			switch {
			case len(kept) == len(fs):
				return b.unfolded(l, fs)
			case len(kept) == 0:
				return nil
			}
			fs = kept
		}
	}
	return b.addLocation(l, fs)
}

// unfolded returns the location of l without folding, whose frames (none
// of them a wrapper) are fs: what location(l, false) returns, without
// symbolizing l again.
func (b *builder) unfolded(l aggregate.Loc, fs []symbolize.Frame) *profile.Location {
	return b.cached(l, false, func() *profile.Location { return b.addLocation(l, fs) }).loc
}

// addLocation adds the location of l, whose frames in a binary are fs.
func (b *builder) addLocation(l aggregate.Loc, fs []symbolize.Frame) *profile.Location {
	o := b.counts.Objects[l.Obj]
	loc := b.locSlab.New()
	loc.ID, loc.Address = uint64(len(b.p.Location)+1), l.Addr
	switch {
	case o.UnknownSite:
		loc.Mapping = b.binMaps[o.Binary]
		loc.Line = b.unknownSiteLines(b.bins[o.Binary].Symbolizer, l.Addr)
	case o.Binary >= 0:
		loc.Mapping = b.binMaps[o.Binary]
		loc.Line = b.binaryLines(fs)
	case o.Path == aggregate.UnknownDSO:
		// in no mapping: the address alone, as perf report's [unknown]
	default:
		loc.Mapping = b.objectMapping(l.Obj)
		if name := b.counts.Symbols[l]; name != "" {
			loc.Line = []profile.Line{{Function: b.function(funcKey{systemName: name})}}
		}
	}
	b.p.Location = append(b.p.Location, loc)
	return loc
}

func withoutWrappers(fs []symbolize.Frame) []symbolize.Frame {
	var out []symbolize.Frame
	for _, f := range fs {
		if !f.Wrapper {
			out = append(out, f)
		}
	}
	return out
}

// unknownSiteLines names a frame inferred without its call site: the
// function whose entry is addr, at line 0 (no line of the function, so
// that go build -pgo keys no call edge to it), or [unknown] for addr 0.
func (b *builder) unknownSiteLines(sym Symbolizer, addr uint64) []profile.Line {
	fn := funcKey{systemName: "[unknown]"}
	if fs := sym.FramesOrSymbol(addr, nil); addr != 0 && len(fs) > 0 {
		f := fs[0]
		fn = funcKey{systemName: f.Func, filename: f.File, startLine: int64(f.StartLine)}
	}
	return []profile.Line{{Function: b.function(fn)}}
}

// binaryLines converts an inline stack (outermost first) to pprof lines
// (innermost first).
func (b *builder) binaryLines(fs []symbolize.Frame) []profile.Line {
	lines := b.lineSlab.Make(len(fs))
	for i, f := range fs {
		fn := b.function(funcKey{systemName: f.Func, filename: f.File, startLine: int64(f.StartLine)})
		lines[len(fs)-1-i] = profile.Line{Function: fn, Line: int64(f.Line)}
	}
	return lines
}

// function returns the function of key, named when it is new.
func (b *builder) function(key funcKey) *profile.Function {
	if fn := b.funcs[key]; fn != nil {
		return fn
	}
	fn := &profile.Function{
		ID:   uint64(len(b.p.Function) + 1),
		Name: functionName(key.systemName), SystemName: key.systemName, Filename: key.filename, StartLine: key.startLine,
	}
	b.p.Function = append(b.p.Function, fn)
	b.funcs[key] = fn
	return fn
}

// pltSuffix ends the name of a PLT stub, as perf and objdump name them.
const pltSuffix = "@plt"

// functionName is the name perf report -v gives a function of the linkage
// name systemName: demangled, and for a PLT stub (name@plt) its target's
// name demangled followed by @plt.
func functionName(systemName string) string {
	if target, ok := strings.CutSuffix(systemName, pltSuffix); ok {
		return demangle.Filter(target) + pltSuffix
	}
	return demangle.Filter(systemName)
}

// objectMapping returns the mapping of a DSO outside the profiled binaries,
// spanning the addresses seen in it.
func (b *builder) objectMapping(obj int32) *profile.Mapping {
	if m := b.objMaps[obj]; m != nil {
		return m
	}
	if b.spans == nil {
		b.spans = addressSpans(b.counts)
	}
	sp := b.spans[obj]
	m := &profile.Mapping{
		ID: uint64(len(b.p.Mapping) + 1), Start: sp.lo, Limit: sp.hi + 1,
		File: b.counts.Objects[obj].Path, HasFunctions: true,
	}
	b.p.Mapping = append(b.p.Mapping, m)
	b.objMaps[obj] = m
	return m
}

// span is the lowest and the highest address seen in an object.
type span struct{ lo, hi uint64 }

// addressSpans returns the span of each object's addresses in the stacks,
// in one pass over them.
func addressSpans(counts *aggregate.StackCounts) []span {
	spans := make([]span, len(counts.Objects))
	seen := make([]bool, len(counts.Objects))
	for _, s := range counts.Stacks {
		for _, l := range s.Locs {
			sp := &spans[l.Obj]
			switch {
			case !seen[l.Obj]:
				*sp, seen[l.Obj] = span{l.Addr, l.Addr}, true
			case l.Addr < sp.lo:
				sp.lo = l.Addr
			case l.Addr > sp.hi:
				sp.hi = l.Addr
			}
		}
	}
	return spans
}
