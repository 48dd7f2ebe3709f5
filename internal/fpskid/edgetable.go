package fpskid

import "math/bits"

// edgeTable holds the indexes of the edges by the hash of their key: open
// addressing with linear probing, at most half full. A slot keeps 32 bits
// of the hash, and the edge itself tells a match: the repair looks up
// every edge of every stack, and reads the edge found anyway.
type edgeTable struct {
	slots []edgeSlot // a power of two of them
	shift uint       // 64 - log2(len(slots)): a hash's top bits pick the slot
	n     int        // the slots in use
}

// edgeSlot is a slot of an edgeTable: the index+1 of an edge, 0 when
// empty, and the low 32 bits of the hash of its key.
type edgeSlot struct {
	hash  uint32
	index int32
}

// newEdgeTable returns a table for about n edges before it grows.
func newEdgeTable(n int) edgeTable {
	size := 1 << bits.Len(uint(max(n, 512)*2-1)) // n at most half of it
	return edgeTable{slots: make([]edgeSlot, size), shift: uint(64 - bits.TrailingZeros(uint(size)))}
}

// find returns the slot of the edge whose key hashes to h and that is
// accepts: the one holding it, or the empty one where add puts it.
func (t *edgeTable) find(h uint64, is func(index int32) bool) *edgeSlot {
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		if s := &t.slots[i]; s.index == 0 || s.hash == uint32(h) && is(s.index-1) {
			return s
		}
	}
}

// add puts edge index i, whose key hashes to h, into slot, the empty slot
// find returned for it; hash gives the hashes of the edges when the table
// grows.
func (t *edgeTable) add(slot *edgeSlot, h uint64, i int32, hash func(index int32) uint64) {
	*slot = edgeSlot{uint32(h), i + 1}
	t.n++
	if 2*t.n > len(t.slots) {
		t.grow(hash)
	}
}

// grow doubles the table.
func (t *edgeTable) grow(hash func(index int32) uint64) {
	old := t.slots
	t.slots, t.shift = make([]edgeSlot, 2*len(old)), t.shift-1
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.index == 0 {
			continue
		}
		i := hash(s.index-1) >> t.shift
		for t.slots[i].index != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// hash mixes the three words of k.
func (k edgeKey) hash() uint64 {
	h := (k.callee*0x9e3779b97f4a7c15 ^ k.caller) * 0xbf58476d1ce4e5b9
	return (h ^ k.objs ^ h>>31) * 0x94d049bb133111eb
}
