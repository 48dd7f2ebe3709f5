package csprofile

import (
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// Options tune CS profile generation. Names and defaults
// (DefaultOptions) are llvm-profgen 19's.
type Options struct {
	// PreInliner runs the CS pre-inliner (--csspgo-preinliner).
	PreInliner bool
	// ContextCost sizes inline candidates by their machine code in the
	// binary (--use-context-cost-for-preinliner); otherwise by their
	// number of body samples.
	ContextCost bool
	// Nested writes a nested (inlined) profile rather than flat contexts
	// (--gen-cs-nested-profile).
	Nested bool
	// MergeColdContext merges contexts colder than the hot threshold into
	// shorter ones (--csprof-merge-cold-context); by default on without the
	// pre-inliner, off with it.
	MergeColdContext *bool
	// MaxColdContextDepth is the context length cold contexts are merged
	// to (--csprof-max-cold-context-depth).
	MaxColdContextDepth int
	// TrimColdProfile drops cold profiles (--trim-cold-profile).
	TrimColdProfile bool
	// MergedBaseProfiles also merges every context nested into a caller
	// into its function's top-level profile (--generate-merged-base-profiles).
	MergedBaseProfiles bool
	// MarkAllPreinlined marks every profile as to be inlined
	// (--mark-all-context-preinlined).
	MarkAllPreinlined bool
	// UpdateTotalSamples recomputes totals from body samples
	// (--update-total-samples).
	UpdateTotalSamples bool
	// FSDiscriminators keeps discriminators whole (the binary uses
	// flow-sensitive discriminators).
	FSDiscriminators bool
	// HotCount and ColdCount override the summary's hot and cold
	// thresholds when set, 0 included (--profile-summary-hot-count,
	// -cold-count): a hot threshold of 0 merges and trims nothing.
	HotCount, ColdCount *uint64
	// The pre-inliner's thresholds (-sample-profile-* options of LLVM).
	Inline InlineOptions
	// SafeRecursiveMerge makes the pre-inliner take a context out of the
	// trie before merging it into its base profile. LLVM merges first: a
	// recursive context ([f:1 @ f:1 @ f] under the base f) is then merged
	// into itself and loses samples (llvm-profgen-19 even crashes on deep
	// recursion with --compress-recursion=0). Off, profgen gives
	// llvm-profgen's bytes; on, every sample is kept.
	SafeRecursiveMerge bool
}

// InlineOptions are the pre-inliner's size and hotness thresholds.
type InlineOptions struct {
	HotCallSiteThreshold  int  // --sample-profile-hot-inline-threshold (1500 for the pre-inliner)
	ColdCallSiteThreshold int  // --sample-profile-cold-inline-threshold (0 for the pre-inliner)
	GrowthLimit           int  // --sample-profile-inline-growth-limit
	LimitMin              int  // --sample-profile-inline-limit-min
	LimitMax              int  // --sample-profile-inline-limit-max (50000 for the pre-inliner)
	PrevInliningFactor    int  // --csspgo-preinliner-multiplier-for-previous-inlining
	Replay                bool // --csspgo-replay-preinline: inline what the binary inlined
	SortSCC               bool // --sort-profiled-scc-member
}

// DefaultOptions returns llvm-profgen 19's defaults.
func DefaultOptions() Options {
	return Options{
		PreInliner: true, ContextCost: true, Nested: true, MaxColdContextDepth: 1,
		Inline: InlineOptions{HotCallSiteThreshold: 1500, ColdCallSiteThreshold: 0, GrowthLimit: 12,
			LimitMin: 100, LimitMax: 50000, PrevInliningFactor: 100, SortSCC: true},
	}
}

// Binary is the profiled binary as generation sees it.
type Binary struct {
	Code generate.Code // instructions and their sizes
	Syms *Symbols      // inline frames, function ranges
}

// generator builds the context trie of a CS profile.
type generator struct {
	bin  Binary
	opts Options
	t    *trie
}

// build fills the trie from the contexts' counters
// (CSProfileGenerator::generateLineNumBasedProfile).
func (g *generator) build(ctxs []Context) {
	for _, c := range ctxs {
		nd := g.t.root
		if len(c.Frames) > 0 {
			nd = g.t.path(c.Frames)
			p := g.t.profileOf(nd)
			if c.WasLeafInlined {
				p.fs.Attributes |= sampleprof.ContextWasInlined
			}
			g.addBody(p.fs, c.Counters.Ranges)
		}
		g.addBoundary(nd, c.Counters.Branches)
	}
	g.inferCallerSamples(g.t.root)
	for _, nd := range g.t.nodes() {
		if nd.prof == nil {
			continue
		}
		if g.opts.UpdateTotalSamples {
			updateTotalSamples(nd.prof.fs)
		}
		generate.UpdateCallsiteSamples(nd.prof.fs)
	}
}

// addBody adds the samples of every instruction of the context's ranges:
// its line gets the largest count of its instructions (times the
// duplication factor), the total one count per instruction.
func (g *generator) addBody(fs *sampleprof.FunctionSamples, ranges map[generate.Range]uint64) {
	for _, r := range generate.DisjointRanges(ranges) {
		if r.Count == 0 {
			continue
		}
		// Consecutive instructions mostly share their frames: one update
		// per run of them.
		var run *addrFrames
		var n uint64
		for addr := range g.bin.Code.Insts(r.Start, r.End) {
			f := g.bin.Syms.at(addr)
			if f != run {
				g.addLine(fs, run, r.Count, n)
				run, n = f, 0
			}
			n++
		}
		g.addLine(fs, run, r.Count, n)
	}
}

// addLine counts n instructions run count times with frames f: the
// leaf's line keeps the largest count (times the duplication factor), the
// total grows by count per instruction.
func (g *generator) addLine(fs *sampleprof.FunctionSamples, f *addrFrames, count, n uint64) {
	if f == nil || len(f.frames) == 0 {
		return
	}
	leaf := f.frames[len(f.frames)-1].Loc
	c := count * uint64(g.duplicationFactor(leaf.Discriminator))
	rec := fs.Record(g.baseLocation(leaf))
	if rec.Samples <= c {
		rec.Samples = c
	}
	fs.TotalSamples += count * n
}

// addBoundary counts the context's branches that enter a function: a call
// target at the source and head samples of the callee in the context
// below (for the empty context: the callee's base context).
func (g *generator) addBoundary(caller *node, branches map[record.Branch]uint64) {
	for b, n := range branches {
		callee := g.calleeAt(b.To)
		if callee == "" {
			continue
		}
		var site sampleprof.LineLocation
		if caller != g.t.root {
			if frames := g.bin.Syms.Frames(b.From); len(frames) > 0 {
				leaf := frames[len(frames)-1].Loc
				caller.prof.fs.AddCallTarget(g.baseLocation(leaf), callee, n)
				site = leaf // LLVM keys the callee's node by the raw discriminator here
			}
		}
		g.t.profileOf(g.t.childOf(caller, site, callee)).fs.HeadSamples += n
	}
}

// calleeAt names the function entered at addr, or "" when addr is not a
// function's entry.
func (g *generator) calleeAt(addr uint64) string {
	r := g.bin.Syms.sym.FuncRangeStartingAt(addr)
	if r == nil || !r.IsEntry {
		return ""
	}
	return symbolize.CanonicalName(r.Func.Name)
}

// inferCallerSamples gives callers of inlined contexts (no call branch
// seen, no head samples) a call of the inlinee's estimated entry count at
// the call site (populateInferredFunctionSamples), children first.
func (g *generator) inferCallerSamples(nd *node) {
	for _, c := range nd.children {
		g.inferCallerSamples(c)
	}
	if nd.prof == nil || nd.prof.fs.HeadSamples != 0 || nd.parent == g.t.root || nd.parent == nil {
		return
	}
	callee := nd.prof.fs
	n := callee.HeadSamplesEstimate(true)
	if n == 0 && len(callee.Body) == 0 {
		n = 1
	}
	caller := g.t.profileOf(nd.parent).fs
	caller.AddCallTarget(nd.callsite, nd.fn, n)
	caller.Record(nd.callsite).Samples += n
	caller.TotalSamples += n
}

// baseLocation is the profile key of a leaf location: its base
// discriminator, or the whole one with flow-sensitive discriminators.
func (g *generator) baseLocation(l sampleprof.LineLocation) sampleprof.LineLocation {
	if !g.opts.FSDiscriminators {
		l.Discriminator = symbolize.BaseDiscriminator(l.Discriminator)
	}
	return l
}

func (g *generator) duplicationFactor(d uint32) uint32 {
	if g.opts.FSDiscriminators {
		return 1
	}
	return symbolize.DuplicationFactor(d)
}

// updateTotalSamples sets totals to the sum of body samples and inlinees'
// totals (FunctionSamples::updateTotalSamples).
func updateTotalSamples(fs *sampleprof.FunctionSamples) {
	var total uint64
	for _, r := range fs.Body {
		total += r.Samples
	}
	for _, callees := range fs.Callsites {
		for _, c := range callees {
			updateTotalSamples(c)
			total += c.TotalSamples
		}
	}
	fs.TotalSamples = total
}
