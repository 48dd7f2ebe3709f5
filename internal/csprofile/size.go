package csprofile

import (
	"github.com/profgen/profgen/internal/binary/pseudoprobe"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// sizeNode is a node of the size trie (BinarySizeContextTracker): the
// trie is reversed, the leaf function at the top and its inlining callers
// below, so that the longest known context of a function can be found from
// it. size is the machine code bytes of the function in exactly that
// inline context.
type sizeNode struct {
	node
	size    uint32
	hasSize bool
}

// sizes tracks function sizes per inline context.
type sizes struct {
	root  *sizeNode
	names names
	all   map[*node]*sizeNode
	// probeLocs keys call sites by the probe index in their DWARF
	// discriminator, as the contexts of a probe profile are keyed
	// (llvm-profgen symbolizes with UseProbeDiscriminator there).
	probeLocs bool
	converted map[*addrFrames][]sampleprof.ContextFrame
}

func newSizes(n names) *sizes {
	s := &sizes{root: &sizeNode{}, names: n, all: map[*node]*sizeNode{}, converted: map[*addrFrames][]sampleprof.ContextFrame{}}
	s.all[&s.root.node] = s.root
	return s
}

func (s *sizes) childOf(nd *sizeNode, loc sampleprof.LineLocation, fn string) *sizeNode {
	h := s.names.callSiteHash(fn, loc)
	if c := nd.child(h); c != nil {
		return s.all[c]
	}
	c := &sizeNode{node: node{fn: fn, callsite: loc}}
	nd.insert(h, &c.node)
	s.all[&c.node] = c
	return c
}

// add counts an instruction of size bytes in its inline context (outermost
// frame first; raw discriminators, as llvm-profgen symbolizes for sizes).
func (s *sizes) add(frames []sampleprof.ContextFrame, size uint32) {
	nd := s.root
	for i := len(frames) - 1; i >= 0; i-- {
		loc := frames[i].Loc
		if i == len(frames)-1 {
			loc = sampleprof.LineLocation{}
		}
		nd = s.childOf(nd, loc, frames[i].Func)
	}
	nd.size += size
	nd.hasSize = true
}

// addFunction counts every instruction of fn's address ranges
// (computeInlinedContextSizeForFunc).
func (s *sizes) addFunction(fn *symbolize.Function, code generate.Code, syms *Symbols) {
	for _, r := range fn.Ranges {
		if r[1] <= r[0] {
			continue
		}
		var run *addrFrames // consecutive instructions mostly share frames
		var size uint32
		for addr, n := range code.Insts(r[0], r[1]-1) {
			if f := syms.at(addr); f != run {
				if run != nil {
					s.add(s.frames(run), size)
				}
				run, size = f, 0
			}
			size += uint32(n)
		}
		if run != nil {
			s.add(s.frames(run), size)
		}
	}
}

// frames returns the inline frames of f as the size trie keys them.
func (s *sizes) frames(f *addrFrames) []sampleprof.ContextFrame {
	if !s.probeLocs {
		return f.frames
	}
	if c, ok := s.converted[f]; ok {
		return c
	}
	c := make([]sampleprof.ContextFrame, len(f.frames))
	for i, fr := range f.frames {
		c[i] = sampleprof.ContextFrame{Func: fr.Func, Loc: sampleprof.LineLocation{LineOffset: pseudoprobe.IndexFromDiscriminator(fr.Loc.Discriminator)}}
	}
	s.converted[f] = c
	return c
}

// addOptimizedAway makes the size of every inline context of the probe
// inline tree under top that has probes known, as 0 unless its code
// counted (trackInlineesOptimizedAway): an inlinee whose code was
// optimized away still left its probes.
func (s *sizes) addOptimizedAway(top *pseudoprobe.Node, descs *pseudoprobe.Descs) {
	var ctx []sampleprof.ContextFrame
	var walk func(n *pseudoprobe.Node)
	walk = func(n *pseudoprobe.Node) {
		name := ""
		if d := descs.Lookup(n.GUID); d != nil {
			name = d.Name
		}
		ctx = append(ctx, sampleprof.ContextFrame{Func: name})
		if len(n.Probes) > 0 {
			s.add(ctx, 0)
		}
		for _, c := range n.Children() {
			ctx[len(ctx)-1].Loc = sampleprof.LineLocation{LineOffset: c.Site}
			walk(c)
		}
		ctx = ctx[:len(ctx)-1]
	}
	walk(top)
}

// sizeOf returns the size of a context profile's function: the size known
// for the longest suffix of its context, or else the size of the function
// in some other context (getFuncSizeForContext).
func (s *sizes) sizeOf(nd *node) uint32 {
	cur, prev := s.root, (*sizeNode)(nil)
	var size uint32
	found := false
	var loc sampleprof.LineLocation
	for cur != nil && nd.parent != nil {
		prev = cur
		if c := cur.child(s.names.callSiteHash(nd.fn, loc)); c != nil {
			cur = s.all[c]
		} else {
			cur = nil
		}
		if cur != nil && cur.hasSize {
			size, found = cur.size, true
		}
		loc = nd.callsite
		nd = nd.parent
	}
	if found {
		return size
	}
	if cur == nil {
		cur = prev
	}
	for !found && cur != nil && len(cur.children) > 0 {
		cur = s.all[cur.children[0]]
		if cur.hasSize {
			size, found = cur.size, true
		}
	}
	return size // 0 when no size is known (LLVM reads an empty optional)
}
