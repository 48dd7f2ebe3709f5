package csprofile

import (
	"github.com/profgen/profgen/internal/sampleprof"
)

// Nest turns a flat context-sensitive profile into a nested one, as
// llvm-profdata merge --convert-sample-profile-layout=nest does
// (ProfileConverter::convertCSProfiles); with mergedBase
// (--generate-merged-base-profiles) every context also merges into its
// function's top-level profile. A profile without contexts is returned as
// it is.
func Nest(p *sampleprof.Profile, mergedBase bool) *sampleprof.Profile {
	if !p.CS {
		return p
	}
	out := nest(flatEntries(p), names{}, mergedBase)
	out.MD5, out.FSDiscriminators, out.ProbeBased, out.PreInlined = p.MD5, p.FSDiscriminators, p.ProbeBased, p.PreInlined
	out.SymbolList = p.SymbolList
	return out
}

// nest turns flat context profiles into a nested profile
// (ProfileConverter::convertCSProfiles): each context profile becomes the
// inlinee of its caller context's profile at the call site, the call it
// replaces taken out of the caller's body; a context whose caller has no
// profile becomes (or merges into) a top-level profile of its function,
// and so does every context with mergedBase, its inlinee then marked
// ContextDuplicatedIntoBase. Contexts are visited children first, siblings
// in call-site hash order, as LLVM, since that order decides which
// profile's attributes a merged top-level profile keeps.
func nest(flat map[string]*flatEntry, n names, mergedBase bool) *sampleprof.Profile {
	t := &trie{root: &node{}, names: n}
	for _, e := range flat {
		nd := t.path(e.ctx)
		e.fs.Context = nil
		nd.prof = &profile{fs: e.fs, node: nd}
	}
	out := sampleprof.NewProfile()
	nestChildren(t.root, out, mergedBase)
	return out
}

func nestChildren(nd *node, out *sampleprof.Profile, mergedBase bool) {
	for _, c := range nd.children {
		nestChildren(c, out, mergedBase)
		if c.prof == nil {
			continue
		}
		child := c.prof.fs
		if nd.prof == nil {
			mergeIntoBase(out, c.fn, child)
			continue
		}
		inlined := inlineInto(nd.prof.fs, c, child)
		if mergedBase {
			mergeIntoBase(out, c.fn, child)
			inlined.Attributes |= sampleprof.ContextDuplicatedIntoBase
		}
	}
}

// mergeIntoBase merges a context's profile into the top-level profile of
// its function, which takes the attributes of the first profile merged.
func mergeIntoBase(out *sampleprof.Profile, fn string, fs *sampleprof.FunctionSamples) {
	top, ok := out.Functions[fn]
	if !ok {
		top = out.Function(fn)
		top.Attributes = fs.Attributes
	}
	top.MergeFrom(fs)
}

// inlineInto makes the profile of context node c, child, the inlinee of
// parent at c's call site, and takes the call it replaces out of parent's
// body; it returns the inlinee (the one already there, for a name hash
// shared with another callee).
func inlineInto(parent *sampleprof.FunctionSamples, c *node, child *sampleprof.FunctionSamples) *sampleprof.FunctionSamples {
	sites := parent.Callsites[c.callsite]
	if sites == nil {
		sites = map[string]*sampleprof.FunctionSamples{}
		parent.Callsites[c.callsite] = sites
	}
	if _, ok := sites[c.fn]; !ok {
		sites[c.fn] = child
	}
	parent.TotalSamples += child.TotalSamples
	removed := removeCall(parent, c.callsite, c.fn)
	parent.TotalSamples -= min(removed, parent.TotalSamples)
	return sites[c.fn]
}

// removeCall takes the calls to callee out of the body record at loc and
// its count (FunctionSamples::removeCalledTargetAndBodySample); a record
// left with no samples goes. It returns the count removed.
func removeCall(fs *sampleprof.FunctionSamples, loc sampleprof.LineLocation, callee string) uint64 {
	r := fs.Body[loc]
	if r == nil {
		return 0
	}
	n := r.CallTargets[callee]
	delete(r.CallTargets, callee)
	n = min(n, r.Samples)
	r.Samples -= n
	if r.Samples == 0 {
		delete(fs.Body, loc)
	}
	return n
}

// flatProfile is the profile of flat contexts, each keyed by its context.
func flatProfile(flat map[string]*flatEntry) *sampleprof.Profile {
	out := sampleprof.NewProfile()
	out.CS = true
	for k, e := range flat {
		e.fs.Context = e.ctx
		out.Functions[k] = e.fs
	}
	return out
}
