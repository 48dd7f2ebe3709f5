package unwind

import (
	"encoding/binary"
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/record"
)

// nodeID names a node of the frame trie.
type nodeID int32

// root is the trie's root: no frame. Counters on it belong to the empty
// context (branches entering the binary from outside).
const root nodeID = 0

// noKey marks a node whose context has not been named yet.
const noKey = -1

type node struct {
	addr   uint64
	parent nodeID
	key    int32 // the Keyer's id of the node's context, or noKey
}

type childKey struct {
	parent nodeID
	addr   uint64
}

// Keyer names calling contexts. The unwinder asks it once for each frame
// that gets counts, giving the frame's context; frames whose contexts get
// the same id share counters. This is where a line-number profile
// symbolizes contexts (package csprofile) and where a pseudo-probe one
// would keep addresses (AddressContexts).
type Keyer interface {
	// Key returns the id of a context: its addresses, outermost first
	// (the call sites of the callers, then the address in the leaf
	// frame); empty for the root context (branches from outside the
	// binary, and what ran in external frames). callers identifies the
	// context's addresses but the last (one value per distinct prefix),
	// for keyers that cache by it. Ids are small and dense from 0; addrs
	// is only valid during the call.
	Key(callers int, addrs []uint64) int
}

// trie is llvm-profgen's frame trie, one for all samples: each node is a
// frame, its address the call site in that frame (the instruction that
// ran, for the leaf), under its caller's node. Counters are kept per
// context id (Keyer).
type trie struct {
	nodes    []node
	recent   *[recentSlots]recentChild // the children looked up last, direct-mapped
	children map[uint64]nodeID         // packed parent and address (see packChild)
	wide     map[childKey]nodeID       // the others
	keyer    Keyer
	counters []*aggregate.Counters // by context id
	addrs    []uint64              // scratch for context addresses
}

// recentChild is a packed parent and address and its child node.
type recentChild struct {
	packed uint64
	id     nodeID
}

// recentSlots is the size of the trie's cache of children: the frames of
// the samples' stacks and branches repeat, and a map lookup costs ten
// times what a look in the cache does.
const recentSlots = 1 << 16

func newTrie(k Keyer) *trie {
	return &trie{nodes: []node{{parent: -1, key: noKey}}, recent: new([recentSlots]recentChild),
		children: map[uint64]nodeID{}, wide: map[childKey]nodeID{}, keyer: k}
}

// packChild packs a parent and an address into one map key when they fit
// (addresses below 2^40, the first 2^24 parents): a map of uint64 keys is
// the fastest Go has.
func packChild(parent nodeID, addr uint64) (uint64, bool) {
	if addr >= 1<<40 || parent >= 1<<24 {
		return 0, false
	}
	return uint64(parent)<<40 | addr, true
}

// child returns the node for addr under parent, creating it.
func (t *trie) child(parent nodeID, addr uint64) nodeID {
	packed, ok := packChild(parent, addr)
	if !ok {
		return childIn(t, t.wide, childKey{parent, addr}, parent, addr)
	}
	slot := &t.recent[(packed^packed>>17^packed>>40)%recentSlots]
	if slot.id != root && slot.packed == packed {
		return slot.id
	}
	id := childIn(t, t.children, packed, parent, addr)
	*slot = recentChild{packed, id}
	return id
}

// childIn returns the node of key k in the child map m, creating it.
func childIn[K comparable](t *trie, m map[K]nodeID, k K, parent nodeID, addr uint64) nodeID {
	id, found := m[k]
	if !found {
		id = t.newNode(parent, addr)
		m[k] = id
	}
	return id
}

func (t *trie) newNode(parent nodeID, addr uint64) nodeID {
	t.nodes = append(t.nodes, node{addr: addr, parent: parent, key: noKey})
	return nodeID(len(t.nodes) - 1)
}

// countersOf returns the counters of n's context, naming it first.
func (t *trie) countersOf(n nodeID) *aggregate.Counters {
	nd := &t.nodes[n]
	if nd.key == noKey {
		callers := int(nd.parent)
		if nd.addr == ExternalAddr {
			callers = -1 // the empty context
		}
		nd.key = int32(t.keyer.Key(callers, t.context(n)))
	}
	for int(nd.key) >= len(t.counters) {
		t.counters = append(t.counters, nil)
	}
	c := t.counters[nd.key]
	if c == nil {
		c = aggregate.NewCounters()
		t.counters[nd.key] = c
	}
	return c
}

func (t *trie) addRange(n nodeID, start, end, count uint64) {
	if start > end {
		return
	}
	t.countersOf(n).Ranges[aggregate.Range{Start: start, End: end}] += count
}

func (t *trie) addBranch(n nodeID, src, dst, count uint64) {
	t.countersOf(n).Branches[record.Branch{From: src, To: dst}] += count
}

// context returns the addresses from the root (or the innermost external
// frame above n) down to n; empty for the root and external frames. The
// result is valid until the next call.
func (t *trie) context(n nodeID) []uint64 {
	addrs := t.addrs[:0]
	for ; n != root && t.nodes[n].addr != ExternalAddr; n = t.nodes[n].parent {
		addrs = append(addrs, t.nodes[n].addr)
	}
	slices.Reverse(addrs)
	t.addrs = addrs
	return addrs
}

// Context is the counters of one calling context of addresses.
type Context struct {
	// Addrs is the context, outermost frame first: the call sites of the
	// callers, then the address of the leaf frame (llvm-profgen's frame
	// trie path). Empty for the root context.
	Addrs    []uint64
	Counters *aggregate.Counters
}

// AddressContexts is a Keyer that keeps contexts as addresses, as
// llvm-profgen keys the contexts of pseudo-probe profiles (its
// AddressStack): recursion compressed and the context trimmed, at the
// address level, before contexts are told apart.
type AddressContexts struct {
	compress, depth int
	ids             map[string]int
	addrs           [][]uint64
	key             []byte
	scratch         []uint64
}

// NewAddressContexts returns an empty AddressContexts that removes
// repeated call-site sequences up to compress long (CompressRecursion) and
// keeps the innermost depth call sites (TrimContext); -1: no limit.
func NewAddressContexts(compress, depth int) *AddressContexts {
	return &AddressContexts{compress: compress, depth: depth, ids: map[string]int{}}
}

// Key interns the context.
func (a *AddressContexts) Key(_ int, addrs []uint64) int {
	ctx := append(a.scratch[:0], addrs...)
	ctx = CompressRecursion(ctx, a.compress)
	ctx = TrimContext(ctx, a.depth)
	a.scratch = ctx[:0]
	a.key = appendAddrKey(a.key[:0], ctx)
	if id, ok := a.ids[string(a.key)]; ok {
		return id
	}
	id := len(a.addrs)
	a.ids[string(a.key)] = id
	a.addrs = append(a.addrs, slices.Clone(ctx))
	return id
}

func appendAddrKey(b []byte, addrs []uint64) []byte {
	for _, x := range addrs {
		b = binary.BigEndian.AppendUint64(b, x)
	}
	return b
}

// Contexts pairs the contexts with their counters (Unwinder.Counters), in
// the order of their addresses.
func (a *AddressContexts) Contexts(counters []*aggregate.Counters) []Context {
	return MergeAddressContexts([]*AddressContexts{a}, [][]*aggregate.Counters{counters})
}

// MergeAddressContexts pairs the contexts of several unwindings (each its
// keyer and its counters by id) with their counters, summing those of the
// same addresses, in the order of their addresses.
func MergeAddressContexts(keys []*AddressContexts, counters [][]*aggregate.Counters) []Context {
	byKey := map[string]int{}
	var out []Context
	var key []byte
	for i, a := range keys {
		for id, c := range counters[i] {
			if c == nil {
				continue
			}
			if len(keys) == 1 {
				out = append(out, Context{Addrs: a.addrs[id], Counters: c})
				continue
			}
			key = appendAddrKey(key[:0], a.addrs[id])
			if j, ok := byKey[string(key)]; ok {
				out[j].Counters.Add(c)
				continue
			}
			byKey[string(key)] = len(out)
			sum := aggregate.NewCounters()
			sum.Add(c)
			out = append(out, Context{Addrs: a.addrs[id], Counters: sum})
		}
	}
	slices.SortFunc(out, func(x, y Context) int { return slices.Compare(x.Addrs, y.Addrs) })
	return out
}
