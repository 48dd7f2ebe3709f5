package csprofile

import (
	"github.com/profgen/profgen/internal/sampleprof"
)

// nest turns flat context profiles into a nested profile
// (ProfileConverter::convertCSProfiles): each context profile becomes the
// inlinee of its caller context's profile at the call site, the call it
// replaces taken out of the caller's body; a context whose caller has no
// profile becomes (or merges into) a top-level profile of its function.
// Contexts are visited children first, siblings in call-site hash order,
// as LLVM, since that order decides which profile's attributes a merged
// top-level profile keeps.
func nest(flat map[string]*flatEntry, n names) *sampleprof.Profile {
	t := &trie{root: &node{}, names: n}
	for _, e := range flat {
		nd := t.path(e.ctx)
		nd.prof = &profile{fs: e.fs, node: nd}
	}
	out := sampleprof.NewProfile()
	nestChildren(t.root, out)
	return out
}

func nestChildren(nd *node, out *sampleprof.Profile) {
	for _, c := range nd.children {
		nestChildren(c, out)
		if c.prof == nil {
			continue
		}
		child := c.prof.fs
		if nd.prof == nil {
			top, ok := out.Functions[c.fn]
			if !ok {
				top = out.Function(c.fn)
				top.Attributes = child.Attributes
			}
			top.MergeFrom(child)
			continue
		}
		parent := nd.prof.fs
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
	}
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
