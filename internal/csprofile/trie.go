package csprofile

import (
	"slices"

	"github.com/profgen/profgen/internal/sampleprof"
)

// contextState is what happened to a context profile during pre-inlining
// (SampleProf.h ContextStateMask).
type contextState uint8

const (
	rawContext       contextState = iota // as generated
	syntheticContext                     // moved or merged into
	inlinedContext                       // the pre-inliner inlines it: it stays in its context
	mergedContext                        // merged into another profile: gone
)

// profile is the profile of one context.
type profile struct {
	fs    *sampleprof.FunctionSamples
	state contextState
	node  *node
}

// node is a node of the context trie (LLVM's ContextTrieNode): a function
// called at a call site of its parent's function. Children are kept in the
// order of their call-site hash, LLVM's std::map order, which decides
// tie-breaks downstream.
type node struct {
	fn       string
	callsite sampleprof.LineLocation
	parent   *node
	keys     []uint64 // children's call-site hashes, sorted
	children []*node  // in the order of keys
	prof     *profile
}

// names hashes function names as LLVM's FunctionId (MD5), with a cache.
type names map[string]uint64

func (n names) md5(fn string) uint64 {
	h, ok := n[fn]
	if !ok {
		h = sampleprof.MD5Name(fn)
		n[fn] = h
	}
	return h
}

// callSiteHash is FunctionSamples::getCallSiteHash: the callee's name hash
// mixed with the location.
func (n names) callSiteHash(fn string, loc sampleprof.LineLocation) uint64 {
	l := uint64(loc.Discriminator)<<32 | uint64(loc.LineOffset)
	return n.md5(fn) + l<<5 + l
}

// child returns the child for fn at loc, or nil.
func (nd *node) child(h uint64) *node {
	if i, ok := slices.BinarySearch(nd.keys, h); ok {
		return nd.children[i]
	}
	return nil
}

// insert adds c under nd at hash h, which must be free.
func (nd *node) insert(h uint64, c *node) {
	i, _ := slices.BinarySearch(nd.keys, h)
	nd.keys = slices.Insert(nd.keys, i, h)
	nd.children = slices.Insert(nd.children, i, c)
	c.parent = nd
}

// remove takes the child at hash h out of nd.
func (nd *node) remove(h uint64) {
	if i, ok := slices.BinarySearch(nd.keys, h); ok {
		nd.keys = slices.Delete(nd.keys, i, i+1)
		nd.children = slices.Delete(nd.children, i, i+1)
	}
}

// trie is the context trie of a CS profile (SampleContextTracker).
type trie struct {
	root  *node
	names names
}

func newTrie() *trie { return &trie{root: &node{}, names: names{}} }

// childOf returns nd's child for fn called at loc, creating it.
func (t *trie) childOf(nd *node, loc sampleprof.LineLocation, fn string) *node {
	h := t.names.callSiteHash(fn, loc)
	if c := nd.child(h); c != nil {
		return c
	}
	c := &node{fn: fn, callsite: loc}
	nd.insert(h, c)
	return c
}

// lookup returns nd's child for fn at loc, or nil.
func (t *trie) lookup(nd *node, loc sampleprof.LineLocation, fn string) *node {
	return nd.child(t.names.callSiteHash(fn, loc))
}

// path returns the node of a context, creating the nodes on the way: each
// frame is a child of the previous one at the previous frame's call site.
func (t *trie) path(ctx []sampleprof.ContextFrame) *node {
	nd := t.root
	var loc sampleprof.LineLocation
	for _, f := range ctx {
		nd = t.childOf(nd, loc, f.Func)
		loc = f.Loc
	}
	return nd
}

// profileOf returns the profile of nd, creating it.
func (t *trie) profileOf(nd *node) *profile {
	if nd.prof == nil {
		nd.prof = &profile{fs: sampleprof.NewFunctionSamples(nd.fn), node: nd}
	}
	return nd.prof
}

// nodes returns the nodes in breadth-first order from the root, children
// in hash order (SampleContextTracker's iterator), root included.
func (t *trie) nodes() []*node {
	out := []*node{t.root}
	for i := 0; i < len(out); i++ {
		out = append(out, out[i].children...)
	}
	return out
}

// context returns the frames from the root to nd, the leaf's location zero.
func (nd *node) context() []sampleprof.ContextFrame {
	var ctx []sampleprof.ContextFrame
	var loc sampleprof.LineLocation
	for n := nd; n.parent != nil; n = n.parent {
		ctx = append(ctx, sampleprof.ContextFrame{Func: n.fn, Loc: loc})
		loc = n.callsite
	}
	slices.Reverse(ctx)
	return ctx
}
