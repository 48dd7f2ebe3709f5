package unwind

import (
	"encoding/binary"
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
)

// NodeID names a node of a Trie.
type NodeID int32

// root is the trie's root: no frame. Counters on it belong to the empty
// context (branches entering the binary from outside).
const root NodeID = 0

type node struct {
	addr   uint64
	parent NodeID
}

type childKey struct {
	parent NodeID
	addr   uint64
}

type rangeKey struct {
	node       NodeID
	start, end uint64
}

type branchKey struct {
	node     NodeID
	src, dst uint64
}

// Trie holds the unwound counters: each node is a frame, its address the
// call site in that frame (the instruction that ran, for the leaf), under
// its caller's node. The counters of a node ran in the context of the path
// from the root to it.
type Trie struct {
	nodes    []node
	children map[childKey]NodeID
	ranges   map[rangeKey]uint64
	branches map[branchKey]uint64
}

func newTrie() *Trie {
	return &Trie{
		nodes:    []node{{parent: -1}},
		children: map[childKey]NodeID{},
		ranges:   map[rangeKey]uint64{},
		branches: map[branchKey]uint64{},
	}
}

// child returns the node for addr under parent, creating it.
func (t *Trie) child(parent NodeID, addr uint64) NodeID {
	k := childKey{parent, addr}
	if id, ok := t.children[k]; ok {
		return id
	}
	id := NodeID(len(t.nodes))
	t.nodes = append(t.nodes, node{addr: addr, parent: parent})
	t.children[k] = id
	return id
}

func (t *Trie) addRange(n NodeID, start, end, count uint64) {
	if start > end {
		return
	}
	t.ranges[rangeKey{n, start, end}] += count
}

func (t *Trie) addBranch(n NodeID, src, dst, count uint64) {
	t.branches[branchKey{n, src, dst}] += count
}

// Context is the counters of one calling context.
type Context struct {
	// Addrs is the context, outermost frame first: the call sites of the
	// callers, then the address of the leaf frame (llvm-profgen's frame
	// trie path). Empty for the root context (branches from outside the
	// binary, and what ran in external frames).
	Addrs    []uint64
	Counters *aggregate.Counters
}

// Contexts returns the counters grouped by context, in the order of their
// addresses. Contexts are cut at external frames: what ran above one has
// the context of the frames above it only, and what ran in an external
// frame has the empty context.
func (t *Trie) Contexts() []Context {
	byNode := map[NodeID]*aggregate.Counters{}
	counters := func(n NodeID) *aggregate.Counters {
		c := byNode[n]
		if c == nil {
			c = aggregate.NewCounters()
			byNode[n] = c
		}
		return c
	}
	for k, v := range t.ranges {
		counters(k.node).Ranges[aggregate.Range{Start: k.start, End: k.end}] += v
	}
	for k, v := range t.branches {
		counters(k.node).Branches[aggregate.Branch{Source: k.src, Target: k.dst}] += v
	}
	merged := map[string]*Context{}
	var key []byte
	for n, c := range byNode {
		addrs := t.context(n)
		key = key[:0]
		for _, a := range addrs {
			key = binary.BigEndian.AppendUint64(key, a)
		}
		if m := merged[string(key)]; m != nil {
			m.Counters.Add(c)
			continue
		}
		merged[string(key)] = &Context{Addrs: addrs, Counters: c}
	}
	out := make([]Context, 0, len(merged))
	for _, c := range merged {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Context) int { return slices.Compare(a.Addrs, b.Addrs) })
	return out
}

// context returns the addresses from the root (or the innermost external
// frame above n) down to n.
func (t *Trie) context(n NodeID) []uint64 {
	var addrs []uint64
	for ; n != root && t.nodes[n].addr != ExternalAddr; n = t.nodes[n].parent {
		addrs = append(addrs, t.nodes[n].addr)
	}
	slices.Reverse(addrs)
	return addrs
}

// Nodes returns the number of frames in the trie.
func (t *Trie) Nodes() int { return len(t.nodes) - 1 }
