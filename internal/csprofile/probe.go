package csprofile

import (
	"fmt"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary/pseudoprobe"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
	"github.com/profgen/profgen/internal/unwind"
)

// CS profiles of binaries built with -fpseudo-probe-for-profiling, as
// llvm-profgen 19's CSProfileGenerator::generateProbeBasedProfile makes
// them. The unwinding keyed the counters by the call-site addresses of the
// caller frames (unwind.AddressContexts); the frames come from the probes:
//
//   - a context's call sites become frames through their call probes,
//     each with its inline context from the probe inline tree (the call
//     sites from the innermost one outwards that have a call probe; the
//     context is cut above the first that has none), the tail calls the
//     call stacks lost inferred first (--infer-missing-frames);
//   - every probe at an instruction of the context's ranges adds the
//     range's count at its index in the profile of its function, in the
//     context of the call sites followed by the probe's inline context
//     (recursion compressed, the context trimmed); the entry probe gives
//     head samples and, for an inlined function, a call of that count at
//     the call site in its caller's profile; the other probes of a
//     function with samples get explicit zeros;
//   - a branch from a call probe's address counts at the call probe, with
//     a call target when it enters a function.
//
// The profile then goes through what line-number CS profiles go through
// (pre-inliner, whose sizes key call sites by probe index; cold contexts;
// nesting), every profile carrying its function's CFG checksum.

// ProbeBinary is the profiled binary as probe-based CS generation sees
// it.
type ProbeBinary struct {
	Binary
	// Inst gives instruction kinds, for the missing-frame inference.
	Inst unwind.Code
	// Probes are the probe sections and the ELF symbols.
	Probes generate.ProbeBinary
}

// GenerateProbe makes the CS profile of the address contexts of a binary
// with pseudo probes. copts say how contexts are compressed and trimmed
// and whether missing frames are inferred. It returns the probe
// descriptors too (for --show-pseudo-probe).
func GenerateProbe(ctxs []unwind.Context, bin ProbeBinary, copts ContextOptions, opts Options) (*Result, *pseudoprobe.Descs, error) {
	funcs := probeProfiledFunctions(ctxs, bin.Syms.sym)
	profiled := make(map[*symbolize.Function]bool, len(funcs))
	for _, f := range funcs {
		profiled[f] = true
	}
	descs, table, err := generate.DecodeProbes(bin.Probes, profiled)
	if err != nil {
		return nil, nil, err
	}
	pg := &probeGenerator{
		generator: generator{bin: bin.Binary, opts: opts, t: newTrie()},
		descs:     descs, table: table, copts: copts,
		leaves: map[leafKey]*node{},
	}
	if copts.InferMissingFrames {
		counters := make([]*aggregate.Counters, len(ctxs))
		for i, c := range ctxs {
			counters[i] = c.Counters
		}
		pg.missing = unwind.NewMissingFrames(bin.Inst, newFuncIDs(bin.Syms.sym), counters, copts.MaxSearchDepth)
	}
	for i, c := range ctxs {
		pg.addBody(i, c)
		pg.addBoundary(i, c)
	}
	if pg.err != nil {
		return nil, nil, pg.err
	}
	var sz *sizes
	if opts.PreInliner && opts.ContextCost {
		sz = pg.sizes(funcs)
	}
	res := pg.finish(sz)
	res.Profile.ProbeBased = true
	return res, descs, nil
}

// probeProfiledFunctions returns the functions the contexts' ranges start
// in, their branches leave or enter, and their call sites are in
// (collectFunctionsFromRawProfile): those whose probes are decoded.
func probeProfiledFunctions(ctxs []unwind.Context, sym Symbolizer) []*symbolize.Function {
	seen := map[*symbolize.Function]bool{}
	var out []*symbolize.Function
	add := func(addr uint64) {
		if r := sym.FuncRangeAt(addr); r != nil && !seen[r.Func] {
			seen[r.Func] = true
			out = append(out, r.Func)
		}
	}
	for _, c := range ctxs {
		for _, a := range c.Addrs {
			add(a)
		}
		for r := range c.Counters.Ranges {
			add(r.Start)
		}
		for b := range c.Counters.Branches {
			add(b.From)
			add(b.To)
		}
	}
	return out
}

// probeGenerator fills the context trie from probes.
type probeGenerator struct {
	generator
	descs   *pseudoprobe.Descs
	table   *pseudoprobe.Table
	copts   ContextOptions
	missing *unwind.MissingFrames // nil: no inference
	// leaves caches the trie node of each context and inline tree node:
	// the frames of a probe's context depend on nothing else (its own
	// index is not part of it).
	leaves  map[leafKey]*node
	frames  []sampleprof.ContextFrame
	addrs   []uint64
	inlined []sampleprof.ContextFrame
	err     error
}

type leafKey struct {
	ctx  int
	node *pseudoprobe.Node
}

// addBody counts the probes of the context's ranges
// (populateBodySamplesWithProbes).
func (pg *probeGenerator) addBody(ci int, c unwind.Context) {
	counts := pg.probeCounts(c.Counters.Ranges)
	all := pg.table.All()
	withSamples := map[*pseudoprobe.Node]map[*profile]bool{}
	for i, n := range counts {
		p := &all[i]
		if p.Type != pseudoprobe.Block || n == 0 {
			continue
		}
		nd := pg.leafNode(ci, c.Addrs, p)
		if nd == nil {
			return
		}
		prof := nd.prof
		if withSamples[p.Node] == nil {
			withSamples[p.Node] = map[*profile]bool{}
		}
		withSamples[p.Node][prof] = true
		prof.fs.Record(sampleprof.LineLocation{LineOffset: p.Index, Discriminator: p.Discriminator}).Samples += n
		prof.fs.TotalSamples += n
		if p.IsEntry() {
			prof.fs.HeadSamples += n
			pg.addInlinedCall(nd, p, n)
		}
	}
	for pn, profs := range withSamples {
		for prof := range profs {
			for _, q := range pn.Probes {
				prof.fs.Record(sampleprof.LineLocation{LineOffset: q.Index, Discriminator: q.Discriminator})
			}
		}
	}
}

// addInlinedCall counts the entries of an inlined function (its entry
// probe's count) as calls at the call site in its caller's profile.
func (pg *probeGenerator) addInlinedCall(nd *node, p *pseudoprobe.Probe, n uint64) {
	if p.Node.Parent == nil || nd.parent == pg.t.root {
		return
	}
	inliner := pg.descs.Lookup(p.Node.Parent.GUID)
	if inliner == nil {
		pg.fail(p.Node.Parent.GUID, p)
		return
	}
	site := sampleprof.LineLocation{LineOffset: nd.callsite.LineOffset}
	caller := pg.t.profileOf(nd.parent).fs
	caller.Checksum = inliner.Hash
	caller.Record(site).Samples += n
	caller.TotalSamples += n
	caller.AddCallTarget(site, nd.fn, n)
}

// probeCounts sums, for every probe at an instruction of the disjoint
// ranges, the counts of the ranges (extractProbesFromRange), by index in
// the table.
func (pg *probeGenerator) probeCounts(ranges map[generate.Range]uint64) map[int]uint64 {
	all := pg.table.All()
	counts := map[int]uint64{}
	for _, r := range generate.DisjointRanges(ranges) {
		i, end := pg.table.Span(r.Start, r.End)
		if i == end {
			continue
		}
		for addr := range pg.bin.Code.Insts(r.Start, r.End) {
			for i < end && all[i].Addr < addr {
				i++
			}
			for ; i < end && all[i].Addr == addr; i++ {
				counts[i] += r.Count
			}
			if i == end {
				break
			}
		}
	}
	return counts
}

// addBoundary counts the context's branches from call probes
// (populateBoundarySamplesWithProbes): the call probe's body count, and a
// call target when the branch enters a function.
func (pg *probeGenerator) addBoundary(ci int, c unwind.Context) {
	for b, n := range c.Counters.Branches {
		p := pg.table.CallProbeAt(b.From)
		if p == nil {
			continue
		}
		nd := pg.leafNode(ci, c.Addrs, p)
		if nd == nil {
			return
		}
		fs := nd.prof.fs
		fs.Record(sampleprof.LineLocation{LineOffset: p.Index}).Samples += n
		fs.TotalSamples += n
		if callee := pg.calleeAt(b.To); callee != "" {
			fs.AddCallTarget(sampleprof.LineLocation{LineOffset: p.Index, Discriminator: p.Discriminator}, callee, n)
		}
	}
}

// leafNode returns the trie node, with its profile, of the function of
// probe p in context ci (getContextNodeForLeafProbe); nil after a
// failure.
func (pg *probeGenerator) leafNode(ci int, addrs []uint64, p *pseudoprobe.Probe) *node {
	k := leafKey{ci, p.Node}
	nd, ok := pg.leaves[k]
	if !ok {
		frames, ok := pg.contextOf(addrs, p)
		if !ok {
			return nil
		}
		nd = pg.t.path(frames)
		pg.leaves[k] = nd
	}
	prof := pg.t.profileOf(nd)
	if p.Node.Parent != nil {
		prof.fs.Attributes |= sampleprof.ContextWasInlined
	}
	prof.fs.Checksum = pg.descs.Lookup(p.GUID()).Hash // contextOf checked it
	return nd
}

// contextOf returns the frame context of probe p's function in the
// context of call sites addrs: the call sites' frames, then p's inline
// context, recursion compressed and trimmed but for the leaf, whose
// location is zero.
func (pg *probeGenerator) contextOf(addrs []uint64, p *pseudoprobe.Probe) ([]sampleprof.ContextFrame, bool) {
	if pg.missing != nil {
		pg.addrs = append(append(pg.addrs[:0], addrs...), p.Addr)
		addrs = pg.missing.Infer(pg.addrs)
		addrs = addrs[:len(addrs)-1]
	}
	frames := pg.frames[:0]
	first := len(addrs)
	for first > 0 && pg.table.CallProbeAt(addrs[first-1]) != nil {
		first--
	}
	var ok bool
	for _, a := range addrs[first:] {
		if frames, ok = pg.appendInlineContext(frames, pg.table.CallProbeAt(a)); !ok {
			return nil, false
		}
	}
	if frames, ok = pg.appendInlineContext(frames, p); !ok {
		return nil, false
	}
	pg.frames = frames
	leaf := sampleprof.ContextFrame{Func: frames[len(frames)-1].Func}
	callers := unwind.CompressRecursion(frames[:len(frames)-1], pg.copts.CompressRecursion)
	callers = unwind.TrimContext(callers, pg.copts.MaxContextDepth)
	return append(callers, leaf), true // callers lies within frames: room for the leaf
}

// appendInlineContext appends p's inline context to frames: its inlining
// callers with their call-site indexes, then p's own function at p's
// index. A call site of unknown index (0) above p drops every frame
// before it, those of frames included, as llvm-profgen does.
func (pg *probeGenerator) appendInlineContext(frames []sampleprof.ContextFrame, p *pseudoprobe.Probe) ([]sampleprof.ContextFrame, bool) {
	in := pg.inlined[:0]
	for n := p.Node; n.Parent != nil; n = n.Parent {
		d := pg.descs.Lookup(n.Parent.GUID)
		if d == nil {
			pg.fail(n.Parent.GUID, p)
			return frames, false
		}
		in = append(in, sampleprof.ContextFrame{Func: d.Name, Loc: sampleprof.LineLocation{LineOffset: n.Site}})
	}
	d := pg.descs.Lookup(p.GUID())
	if d == nil {
		pg.fail(p.GUID(), p)
		return frames, false
	}
	for i := len(in) - 1; i >= 0; i-- {
		if in[i].Loc.LineOffset == 0 {
			frames = frames[:0]
			continue
		}
		frames = append(frames, in[i])
	}
	pg.inlined = in
	return append(frames, sampleprof.ContextFrame{Func: d.Name, Loc: sampleprof.LineLocation{LineOffset: p.Index}}), true
}

// fail records that a probe names a function without descriptor.
func (pg *probeGenerator) fail(guid uint64, p *pseudoprobe.Probe) {
	if pg.err == nil {
		pg.err = fmt.Errorf("%s: probe %d at %#x names function %#x, which %s does not describe", pseudoprobe.ProbeSection, p.Index, p.Addr, guid, pseudoprobe.DescSection)
	}
}

// sizes returns the machine-code sizes of the profiled functions per
// inline context, call sites keyed by probe index, with the inlinees
// optimized away known as size 0 (computeSizeForProfiledFunctions).
func (pg *probeGenerator) sizes(funcs []*symbolize.Function) *sizes {
	sz := newSizes(pg.t.names)
	sz.probeLocs = true
	top := map[string]*pseudoprobe.Node{}
	for _, r := range pg.table.Roots {
		if d := pg.descs.Lookup(r.GUID); d != nil {
			top[d.Name] = r
		}
	}
	for _, fn := range funcs {
		sz.addFunction(fn, pg.bin.Code, pg.bin.Syms)
		if r := top[fn.Name]; r != nil {
			sz.addOptimizedAway(r, pg.descs)
		}
	}
	return sz
}

// funcIDs tells the functions of addresses apart for the missing-frame
// inference (unwind.Funcs).
type funcIDs struct {
	sym Symbolizer
	ids map[*symbolize.Function]uint64
}

func newFuncIDs(sym Symbolizer) *funcIDs {
	return &funcIDs{sym: sym, ids: map[*symbolize.Function]uint64{}}
}

func (f *funcIDs) FuncAt(addr uint64) (rangeStart, fn uint64, ok bool) {
	r := f.sym.FuncRangeAt(addr)
	if r == nil {
		return 0, 0, false
	}
	id, ok := f.ids[r.Func]
	if !ok {
		id = uint64(len(f.ids) + 1)
		f.ids[r.Func] = id
	}
	return r.Start, id, true
}
