// Package pprofout turns aggregated call-stack samples into a pprof profile
// (github.com/google/pprof/profile), the input of `go tool pprof` and of Go's
// profile-guided optimization (go build -pgo).
//
// In: aggregate.StackCounts and, per profiled binary, its mapping facts
// and a Symbolizer (DWARF inline frames, ELF symbols where there is no
// DWARF, PLT stubs as name@plt). Out: a *profile.Profile with sample types samples/count (and
// cpu/nanoseconds when every sample comes from a clock event with a period),
// one Mapping per binary with its build id, and symbolized Locations with
// their inlined frames. Functions carry the name (demangled), the system
// name (linkage name), the file and the start line (DW_AT_decl_line), which
// Go's PGO needs to key call edges by line offset.
//
// Frames of the kernel and of other DSOs are kept, each DSO its own Mapping,
// named by perf's symbol names. Frames of compiler-generated wrappers
// (Go's method-value -fm, promoted-method and go-statement wrappers) are
// folded into their callers as Go's own profiler folds them, unless a
// Binary says KeepWrappers; kernel and vDSO frames above a binary's frames
// are left out when it says FoldKernel. A frame that stack repair inferred without its
// call site is its function at line 0.
package pprofout

import (
	"sort"

	"github.com/google/pprof/profile"
	"github.com/ianlancetaylor/demangle"

	"github.com/profgen/profgen/internal/aggregate"
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
}

// Build returns the pprof profile of counts.
func Build(counts *aggregate.StackCounts, bins []Binary) *profile.Profile {
	b := &builder{
		counts:    counts,
		bins:      bins,
		p:         &profile.Profile{},
		locs:      map[locKey]*profile.Location{},
		funcs:     map[profile.Function]*profile.Function{},
		objMaps:   map[int32]*profile.Mapping{},
		clockOnly: isClock(counts.Events),
	}
	b.sampleTypes()
	if counts.LastNS > counts.FirstNS {
		b.p.DurationNanos = int64(counts.LastNS - counts.FirstNS)
	}
	b.binaryMappings()
	b.prefetch()
	for _, s := range counts.Stacks {
		b.addStack(s)
	}
	return b.p
}

type builder struct {
	counts    *aggregate.StackCounts
	bins      []Binary
	p         *profile.Profile
	locs      map[locKey]*profile.Location
	funcs     map[profile.Function]*profile.Function
	binMaps   []*profile.Mapping
	objMaps   map[int32]*profile.Mapping
	clockOnly bool
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

func (b *builder) addStack(s *aggregate.Stack) {
	ps := &profile.Sample{Value: []int64{int64(s.Count)}}
	if b.clockOnly {
		ps.Value = append(ps.Value, int64(s.Period))
	}
	callee := ""
	for _, l := range b.userStack(s.Locs) {
		loc := b.location(l, b.folds(l) && !isPanic(callee))
		callee = ""
		if loc == nil {
			continue // a wrapper, folded
		}
		ps.Location = append(ps.Location, loc)
		if len(loc.Line) > 0 {
			callee = loc.Line[len(loc.Line)-1].Function.SystemName
		}
	}
	b.p.Sample = append(b.p.Sample, ps)
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

// isPanic reports the functions whose wrapper callers Go keeps in stacks
// (runtime.elideWrapperCalling).
func isPanic(fn string) bool {
	return fn == "runtime.gopanic" || fn == "runtime.sigpanic" || fn == "runtime.panicwrap"
}

// locKey is a location, with or without its wrapper frames.
type locKey struct {
	loc  aggregate.Loc
	fold bool
}

// location returns the location of l; with fold, without the lines of
// wrapper functions, nil when only wrappers are left.
func (b *builder) location(l aggregate.Loc, fold bool) *profile.Location {
	key := locKey{l, fold}
	if loc, ok := b.locs[key]; ok {
		return loc
	}
	loc := b.newLocation(l, fold)
	b.locs[key] = loc
	return loc
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

// unfolded returns the location of l without folding, whose frames are
// fs.
func (b *builder) unfolded(l aggregate.Loc, fs []symbolize.Frame) *profile.Location {
	key := locKey{l, false}
	if loc, ok := b.locs[key]; ok {
		return loc
	}
	loc := b.addLocation(l, fs)
	b.locs[key] = loc
	return loc
}

// addLocation adds the location of l, whose frames in a binary are fs.
func (b *builder) addLocation(l aggregate.Loc, fs []symbolize.Frame) *profile.Location {
	o := b.counts.Objects[l.Obj]
	loc := &profile.Location{ID: uint64(len(b.p.Location) + 1), Address: l.Addr}
	switch {
	case o.UnknownSite:
		loc.Mapping = b.binMaps[o.Binary]
		loc.Line = b.unknownSiteLines(b.bins[o.Binary].Symbolizer, l.Addr)
	case o.Binary >= 0:
		loc.Mapping = b.binMaps[o.Binary]
		loc.Line = b.binaryLines(fs)
	default:
		loc.Mapping = b.objectMapping(l.Obj)
		if name := b.counts.Symbols[l]; name != "" {
			loc.Line = []profile.Line{{Function: b.function(profile.Function{Name: demangle.Filter(name), SystemName: name})}}
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
	name := "[unknown]"
	fn := profile.Function{Name: name, SystemName: name}
	if fs := sym.FramesOrSymbol(addr, nil); addr != 0 && len(fs) > 0 {
		f := fs[0]
		fn = profile.Function{Name: demangle.Filter(f.Func), SystemName: f.Func, Filename: f.File, StartLine: int64(f.StartLine)}
	}
	return []profile.Line{{Function: b.function(fn)}}
}

// binaryLines converts an inline stack (outermost first) to pprof lines
// (innermost first).
func (b *builder) binaryLines(fs []symbolize.Frame) []profile.Line {
	lines := make([]profile.Line, len(fs))
	for i, f := range fs {
		fn := b.function(profile.Function{
			Name: demangle.Filter(f.Func), SystemName: f.Func, Filename: f.File, StartLine: int64(f.StartLine),
		})
		lines[len(fs)-1-i] = profile.Line{Function: fn, Line: int64(f.Line)}
	}
	return lines
}

func (b *builder) function(key profile.Function) *profile.Function {
	if fn := b.funcs[key]; fn != nil {
		return fn
	}
	fn := key
	fn.ID = uint64(len(b.p.Function) + 1)
	b.p.Function = append(b.p.Function, &fn)
	b.funcs[key] = &fn
	return &fn
}

// objectMapping returns the mapping of a DSO outside the profiled binaries,
// spanning the addresses seen in it.
func (b *builder) objectMapping(obj int32) *profile.Mapping {
	if m := b.objMaps[obj]; m != nil {
		return m
	}
	lo, hi := b.addressRange(obj)
	m := &profile.Mapping{
		ID: uint64(len(b.p.Mapping) + 1), Start: lo, Limit: hi + 1,
		File: b.counts.Objects[obj].Path, HasFunctions: true,
	}
	b.p.Mapping = append(b.p.Mapping, m)
	b.objMaps[obj] = m
	return m
}

func (b *builder) addressRange(obj int32) (lo, hi uint64) {
	var addrs []uint64
	for _, s := range b.counts.Stacks {
		for _, l := range s.Locs {
			if l.Obj == obj {
				addrs = append(addrs, l.Addr)
			}
		}
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	return addrs[0], addrs[len(addrs)-1]
}
