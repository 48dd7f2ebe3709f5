package csprofile

import (
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
}

func newSizes(n names) *sizes {
	s := &sizes{root: &sizeNode{}, names: n, all: map[*node]*sizeNode{}}
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
					s.add(run.frames, size)
				}
				run, size = f, 0
			}
			size += uint32(n)
		}
		if run != nil {
			s.add(run.frames, size)
		}
	}
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
