package csprofile

import (
	"github.com/profgen/profgen/internal/sampleprof"
)

// preInliner is llvm-profgen's CSPreInliner: walking functions top-down, it
// decides which context profiles the compiler should inline (by call count
// and machine-code size), keeps those in their contexts, and merges the
// others into their function's base profile.
type preInliner struct {
	t       *trie
	opts    InlineOptions
	summary *sampleprof.Summary
	cold    uint64 // cold count threshold
	size    func(*node) uint32
	// detachFirst takes a context out of its parent before promoting it
	// (see Options.SafeRecursiveMerge).
	detachFirst bool

	byFunc map[string][]*profile // context profiles of each function, BFS order
}

func (p *preInliner) run() {
	p.byFunc = map[string][]*profile{}
	for _, nd := range p.t.nodes() {
		if nd.prof != nil {
			nd.prof.state = rawContext
			nd.prof.node = nd
			p.byFunc[nd.fn] = append(p.byFunc[nd.fn], nd.prof)
		}
	}
	for _, fn := range newCallGraph(p.t, p.cold).topDownOrder(p.opts.SortSCC) {
		p.processFunction(fn)
	}
	for _, nd := range p.t.nodes() {
		if nd.prof != nil && nd.parent != p.t.root && nd.prof.state != inlinedContext {
			nd.prof = nil // merged into its base profile, or lost (see README)
		}
	}
}

// processFunction inlines, into fn's base profile, its hottest context
// callees first, then theirs, while the function stays under its size
// limit.
func (p *preInliner) processFunction(fn string) {
	base := p.baseProfile(fn)
	if base == nil {
		return
	}
	size := p.size(base.node)
	limit := size * uint32(p.opts.GrowthLimit)
	limit = min(limit, uint32(p.opts.LimitMax))
	limit = max(limit, uint32(p.opts.LimitMin))
	final := size
	var q candidateQueue
	p.addCandidates(&q, base)
	for q.len() > 0 && final < limit {
		c := q.pop()
		if !p.shouldInline(c) {
			continue
		}
		c.prof.state = inlinedContext
		c.prof.fs.Attributes |= sampleprof.ContextShouldBeInlined
		final += uint32(c.size)
		p.addCandidates(&q, c.prof)
	}
}

// addCandidates queues the context callees of a profile's node.
func (p *preInliner) addCandidates(q *candidateQueue, caller *profile) {
	for _, nd := range caller.node.children {
		if nd.prof == nil {
			continue
		}
		count := max(callTargetCount(caller, nd), nd.prof.fs.HeadSamplesEstimate(true))
		q.push(candidate{prof: nd.prof, count: count, size: uint64(p.size(nd)), guid: p.t.names.md5(nd.fn)})
	}
}

// shouldInline decides by the call count: cold calls are inlined when
// smaller than the cold threshold, hotter ones get a threshold growing
// with their hotness (scaled between the cold count and the count at the
// 10% cutoff; one more, so that a hot call always has some), raised for
// calls the binary inlined.
func (p *preInliner) shouldInline(c candidate) bool {
	wasInlined := c.prof.fs.Attributes&sampleprof.ContextWasInlined != 0
	if p.opts.Replay {
		return wasInlined
	}
	threshold := uint32(p.opts.ColdCallSiteThreshold)
	if c.count > p.cold {
		upper := float64(p.summaryMinCount(100000))
		lower := float64(p.cold)
		hotness := (float64(c.count) - lower) / (upper - lower)
		if hotness > 1 {
			hotness = 1
		}
		threshold = uint32(int64(float64(p.opts.HotCallSiteThreshold)*hotness*100 + float64(p.opts.ColdCallSiteThreshold) + 1))
		if wasInlined {
			threshold *= uint32(p.opts.PrevInliningFactor)
		}
	}
	return c.size < uint64(threshold)
}

func (p *preInliner) summaryMinCount(cutoff uint64) uint64 {
	for _, e := range p.summary.Detailed {
		if e.Cutoff >= cutoff {
			return e.MinCount
		}
	}
	return 0
}

// baseProfile returns fn's base (context-less) profile after merging into
// it every context profile of fn that is not inlined
// (SampleContextTracker::getBaseSamplesFor).
func (p *preInliner) baseProfile(fn string) *profile {
	base := p.t.lookup(p.t.root, sampleprof.LineLocation{}, fn)
	for _, cp := range p.byFunc[fn] {
		if cp.state == inlinedContext || cp.state == mergedContext || cp.node == base {
			continue
		}
		base = p.promote(cp.node, p.t.root)
	}
	if base == nil {
		return nil
	}
	return base.prof
}

// promote moves the subtree of from under to (to the root: as a base
// profile), merging it into what is there (promoteMergeContextSamplesTree).
func (p *preInliner) promote(from, to *node) *node {
	site := from.callsite
	if to == p.t.root {
		site = sampleprof.LineLocation{}
		if p.detachFirst {
			from.parent.remove(p.t.names.callSiteHash(from.fn, from.callsite))
		}
	}
	oldSite, oldParent := from.callsite, from.parent
	dst := p.t.lookup(to, site, from.fn)
	if dst == nil {
		dst = p.move(from, to, site)
	} else {
		p.mergeNode(from, dst)
		for _, c := range append([]*node(nil), from.children...) {
			p.promote(c, dst)
		}
		from.keys, from.children = nil, nil
	}
	if to == p.t.root && !p.detachFirst {
		oldParent.remove(p.t.names.callSiteHash(from.fn, oldSite))
	}
	return dst
}

// move re-parents the subtree of nd under to at site; its profiles become
// synthetic.
func (p *preInliner) move(nd, to *node, site sampleprof.LineLocation) *node {
	nd.callsite = site
	to.insert(p.t.names.callSiteHash(nd.fn, site), nd)
	stack := []*node{nd}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.prof != nil {
			n.prof.node = n
			n.prof.state = syntheticContext
		}
		stack = append(stack, n.children...)
	}
	return nd
}

// mergeNode merges from's profile into to's, or hands it over when to has
// none (mergeContextNode).
func (p *preInliner) mergeNode(from, to *node) {
	switch {
	case from.prof != nil && to.prof != nil:
		to.prof.fs.MergeFrom(from.prof.fs)
		to.prof.state = syntheticContext
		from.prof.state = mergedContext
		to.prof.fs.Attributes |= from.prof.fs.Attributes & sampleprof.ContextShouldBeInlined
	case from.prof != nil:
		to.prof = from.prof
		to.prof.node = to
		to.prof.state = syntheticContext
	}
}

// candidate is an inline candidate: a context profile with its call count
// and size.
type candidate struct {
	prof  *profile
	count uint64
	size  uint64
	guid  uint64
}

// less is ProfiledCandidateComparer: the queue pops the greatest first:
// zero-sized ones, then by call count, then the smaller, then by GUID.
func (a candidate) less(b candidate) bool {
	if (a.size == 0 || b.size == 0) && a.size != b.size {
		return b.size == 0
	}
	if a.count != b.count {
		return a.count < b.count
	}
	if a.size != b.size {
		return a.size > b.size
	}
	return a.guid < b.guid
}
