// Package densemap reproduces the iteration order of LLVM's DenseMap and
// SmallDenseMap with 64-bit integer keys, where llvm's output follows it.
//
// In: the keys in insertion order and the map's inline bucket count.
// Out: the keys' indexes in the order the map's buckets hold them.
package densemap

// Order returns the indexes of keys (distinct, inserted in order) in the
// bucket order of a DenseMap<uint64_t, T> (inline 0) or a
// SmallDenseMap<uint64_t, T, inline> after inserting them: buckets grow to
// 64, then double, when an insertion would fill 3/4 of them (entries
// moved in bucket order); a key goes to its hash's bucket masked, then
// quadratic probing.
func Order(keys []uint64, inline int) []int {
	m := &table{keys: keys, buckets: make([]int, inline)}
	m.clear(m.buckets)
	for i := range keys {
		m.insert(i)
	}
	out := make([]int, 0, len(keys))
	for _, b := range m.buckets {
		if b >= 0 {
			out = append(out, b)
		}
	}
	return out
}

type table struct {
	keys    []uint64
	buckets []int // key index, -1 for empty
	n       int
}

func (m *table) clear(bs []int) {
	for i := range bs {
		bs[i] = -1
	}
}

func (m *table) insert(i int) {
	if (m.n+1)*4 >= len(m.buckets)*3 {
		old := m.buckets
		m.buckets = make([]int, max(64, 2*len(old)))
		m.clear(m.buckets)
		for _, k := range old {
			if k >= 0 {
				m.place(k)
			}
		}
	}
	m.place(i)
	m.n++
}

func (m *table) place(i int) {
	mask := uint32(len(m.buckets) - 1)
	b := Hash(m.keys[i]) & mask
	for probe := uint32(1); m.buckets[b] >= 0; probe++ {
		b = (b + probe) & mask
	}
	m.buckets[b] = i
}

// Hash is LLVM's DenseMapInfo hash of a 64-bit integer key (a multiply
// and xor-shift), truncated to 32 bits.
func Hash(x uint64) uint32 {
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 31
	return uint32(x)
}
