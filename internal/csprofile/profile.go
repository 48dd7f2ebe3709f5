package csprofile

import (
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// Result is a generated CS profile: nested (a sampleprof.Profile whose
// inlinees are the contexts the pre-inliner kept), or flat (each context
// its own profile).
type Result struct {
	// Profile is the profile: nested, or with Profile.CS set, flat.
	Profile *sampleprof.Profile
	// HotThreshold and ColdThreshold are the counts computed from the
	// context-less profile before pre-inlining.
	HotThreshold, ColdThreshold uint64
}

// Generate makes the CS profile of the contexts, as llvm-profgen 19's
// CSProfileGenerator: a context trie of profiles, with call targets and
// head samples from branches and inferred calls into inlined code; the
// pre-inliner; cold-context merging and trimming; nesting.
func Generate(ctxs []Context, bin Binary, opts Options) *Result {
	g := &generator{bin: bin, opts: opts, t: newTrie()}
	var sz *sizes
	done := make(chan struct{})
	go func() {
		defer close(done)
		if opts.PreInliner && opts.ContextCost {
			sz = contextSizes(ctxs, bin)
		}
	}()
	g.build(ctxs)
	<-done
	return g.finish(sz)
}

// contextSizes sizes the inline contexts of the profiled functions for the
// pre-inliner. It runs alongside the building of the trie, so it keeps its
// own symbol cache and name hashes.
func contextSizes(ctxs []Context, bin Binary) *sizes {
	sz := newSizes(names{})
	syms := NewSymbols(bin.Syms.sym)
	for _, fn := range profiledFunctions(ctxs, bin.Syms.sym) {
		sz.addFunction(fn, bin.Code, syms)
	}
	return sz
}

// finish runs what follows the building of the trie
// (CSProfileGenerator::postProcessProfiles): the summary and thresholds
// of the context-less profile, the pre-inliner (sizes from sz, or the
// number of body samples without), cold-context merging and trimming,
// nesting.
func (g *generator) finish(sz *sizes) *Result {
	opts := g.opts
	summary := contextLessSummary(g.t)
	res := &Result{HotThreshold: summary.HotThreshold(), ColdThreshold: summary.ColdThreshold()}
	if opts.HotCount != nil {
		res.HotThreshold = *opts.HotCount
	}
	if opts.ColdCount != nil {
		res.ColdThreshold = *opts.ColdCount
	}
	mergeCold := !opts.PreInliner
	if opts.PreInliner {
		size := func(nd *node) uint32 { return uint32(len(nd.prof.fs.Body)) }
		if sz != nil {
			size = sz.sizeOf
		}
		p := &preInliner{t: g.t, opts: opts.Inline, summary: summary, cold: res.ColdThreshold, size: size, detachFirst: opts.SafeRecursiveMerge}
		p.run()
	}
	if opts.MergeColdContext != nil {
		mergeCold = *opts.MergeColdContext
	}
	flat := flatProfiles(g.t)
	if opts.TrimColdProfile || mergeCold {
		flat = trimAndMergeCold(flat, res.HotThreshold, opts.TrimColdProfile, mergeCold, opts.MaxColdContextDepth, opts.PreInliner)
	}
	if opts.MarkAllPreinlined {
		markShouldBeInlined(flat)
	}
	var prof *sampleprof.Profile
	if opts.Nested {
		prof = nest(flat, g.t.names, opts.MergedBaseProfiles)
	} else {
		prof = flatProfile(flat)
	}
	generate.DropAmbiguous(prof)
	prof.PreInlined = opts.PreInliner
	if opts.MarkAllPreinlined {
		prof.PreInlined = true
	}
	prof.FSDiscriminators = opts.FSDiscriminators
	res.Profile = prof
	return res
}

// markShouldBeInlined marks every context's profile ContextShouldBeInlined
// (--mark-all-context-preinlined: llvm-profgen 22 replays all inlining),
// so that nesting keeps the mark on inlinees too.
func markShouldBeInlined(flat map[string]*flatEntry) {
	for _, e := range flat {
		e.fs.Attributes |= sampleprof.ContextShouldBeInlined
	}
}

// profiledFunctions returns the functions the contexts' ranges start in
// and their branches leave or enter.
func profiledFunctions(ctxs []Context, sym Symbolizer) []*symbolize.Function {
	seen := map[*symbolize.Function]bool{}
	var out []*symbolize.Function
	add := func(addr uint64) {
		if r := sym.FuncRangeAt(addr); r != nil && !seen[r.Func] {
			seen[r.Func] = true
			out = append(out, r.Func)
		}
	}
	for _, c := range ctxs {
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

// contextLessSummary summarizes the trie's profiles merged by function.
func contextLessSummary(t *trie) *sampleprof.Summary {
	p := sampleprof.NewProfile()
	for _, nd := range t.nodes() {
		if nd.prof != nil {
			f, ok := p.Functions[nd.fn]
			if !ok {
				f = p.Function(nd.fn)
			}
			f.MergeFrom(nd.prof.fs)
		}
	}
	return sampleprof.ComputeSummary(p)
}

// flatEntry is one context's profile.
type flatEntry struct {
	ctx []sampleprof.ContextFrame
	fs  *sampleprof.FunctionSamples
}

// flatEntries lists the contexts of a flat CS profile, keyed by context
// text.
func flatEntries(p *sampleprof.Profile) map[string]*flatEntry {
	flat := make(map[string]*flatEntry, len(p.Functions))
	for k, fs := range p.Functions {
		flat[k] = &flatEntry{ctx: fs.Context, fs: fs}
	}
	return flat
}

// flatProfiles lists the trie's profiles with their contexts
// (convertToProfileMap), keyed by context text.
func flatProfiles(t *trie) map[string]*flatEntry {
	out := map[string]*flatEntry{}
	for _, nd := range t.nodes() {
		if nd.prof == nil {
			continue
		}
		ctx := nd.context()
		out[sampleprof.ContextString(ctx)] = &flatEntry{ctx: ctx, fs: nd.prof.fs}
	}
	return out
}

// trimAndMergeCold merges profiles colder than threshold into the profile
// of their last depth frames, and with trim drops those still cold
// (SampleContextTrimmer::trimAndMergeColdContextProfiles). With baseOnly
// (and no merging) only base profiles are trimmed.
func trimAndMergeCold(flat map[string]*flatEntry, threshold uint64, trim, merge bool, depth int, baseOnly bool) map[string]*flatEntry {
	if threshold == 0 {
		return flat
	}
	if merge {
		baseOnly = false
	}
	merged := map[string]*flatEntry{}
	for k, e := range flat {
		if e.fs.TotalSamples >= threshold || (baseOnly && len(e.ctx) != 1) {
			continue
		}
		if merge {
			ctx := e.ctx
			if depth < len(ctx) {
				ctx = ctx[len(ctx)-depth:]
			}
			mk := sampleprof.ContextString(ctx)
			m := merged[mk]
			if m == nil {
				m = &flatEntry{ctx: ctx, fs: sampleprof.NewFunctionSamples(e.fs.Name)}
				merged[mk] = m
			}
			m.fs.MergeFrom(e.fs)
		}
		delete(flat, k)
	}
	for k, m := range merged {
		orig, ok := flat[k]
		if trim && m.fs.TotalSamples < threshold && !ok {
			continue
		}
		if !ok {
			orig = &flatEntry{ctx: m.ctx, fs: sampleprof.NewFunctionSamples(m.fs.Name)}
			orig.fs.Attributes = m.fs.Attributes
			flat[k] = orig
		}
		orig.fs.MergeFrom(m.fs)
	}
	return flat
}

// TrimColdContexts applies llvm-profdata merge --sample's
// --sample-merge-cold-context and --sample-trim-cold-context to a flat
// context-sensitive profile: the trimmer above, on every context (not the
// base profiles only), with the last depth frames of a cold context kept.
func TrimColdContexts(p *sampleprof.Profile, threshold uint64, trim, merge bool, depth int) {
	flat := trimAndMergeCold(flatEntries(p), threshold, trim, merge, depth, false)
	p.Functions = make(map[string]*sampleprof.FunctionSamples, len(flat))
	for k, e := range flat {
		e.fs.Context = e.ctx
		p.Functions[k] = e.fs
	}
}
