package sampleprof

import "strings"

// LLVM keeps a profile's top-level functions in a SampleProfileMap, a
// std::unordered_map keyed by the MD5 of the name; the extbinary writer
// lists the function metadata section (checksums, attributes) in that
// map's iteration order, and llvm-profdata merge fills its map in the
// iteration order of each input's. That order is libstdc++'s: a function
// of the keys and of the order they were inserted in. hashOrder replays
// libstdc++'s _Hashtable (unique keys, std::hash<uint64_t> = identity,
// _Prime_rehash_policy with maximum load factor 1) for a sequence of
// insertions.

// hashBuckets are the bucket counts a default-constructed unordered_map
// goes through as it grows by one insertion at a time: it rehashes to the
// next one when an insertion would take its size above the current one
// (libstdc++ 12, measured).
var hashBuckets = []uint64{1, 13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043,
	85229, 172933, 351061, 712697, 1447153, 2938679, 5967347, 12117689, 24607243, 49969847}

// hashTable replays a libstdc++ unordered_map's singly linked node list
// and its buckets (each the index of the node before the bucket's first,
// or beforeBegin, or none).
type hashTable struct {
	keys    []uint64
	next    []int // next node, or none
	buckets []int
	head    int // first node (beforeBegin's next), or none
	nbkt    int // index in hashBuckets
}

const (
	none        = -1
	beforeBegin = -2
)

// hashOrder returns the indexes of keys in the iteration order of an
// unordered_map they were inserted into in this order (keys distinct);
// ok is false past the sizes measured.
func hashOrder(keys []uint64) (order []int, ok bool) {
	if len(keys) >= int(hashBuckets[len(hashBuckets)-1]) {
		return nil, false
	}
	h := &hashTable{head: none}
	h.buckets = []int{none}
	for i, k := range keys {
		h.insert(i, k)
	}
	order = make([]int, 0, len(keys))
	for n := h.head; n != none; n = h.next[n] {
		order = append(order, n)
	}
	return order, true
}

func (h *hashTable) bucket(k uint64) int { return int(k % uint64(len(h.buckets))) }

// setNext sets the next pointer of node n, or of beforeBegin.
func (h *hashTable) setNext(n, to int) {
	if n == beforeBegin {
		h.head = to
	} else {
		h.next[n] = to
	}
}

func (h *hashTable) nextOf(n int) int {
	if n == beforeBegin {
		return h.head
	}
	return h.next[n]
}

// insert adds node i with key k (_M_insert_unique_node: rehash if needed,
// then _M_insert_bucket_begin).
func (h *hashTable) insert(i int, k uint64) {
	h.keys = append(h.keys, k)
	h.next = append(h.next, none)
	// The empty map has one bucket and rehashes on its first insertion.
	if h.nbkt == 0 || uint64(len(h.keys)) > hashBuckets[h.nbkt] {
		h.nbkt++
		h.rehash(int(hashBuckets[h.nbkt]))
	}
	b := h.bucket(k)
	if prev := h.buckets[b]; prev != none {
		h.next[i] = h.nextOf(prev)
		h.setNext(prev, i)
		return
	}
	h.next[i] = h.head
	h.head = i
	if h.next[i] != none {
		h.buckets[h.bucket(h.keys[h.next[i]])] = i
	}
	h.buckets[b] = beforeBegin
}

// rehash moves the nodes to n buckets (_M_rehash_aux for unique keys).
func (h *hashTable) rehash(n int) {
	buckets := make([]int, n)
	for i := range buckets {
		buckets[i] = none
	}
	p := h.head
	h.head = none
	bbegin := 0
	for p != none {
		next := h.next[p]
		b := int(h.keys[p] % uint64(n))
		if buckets[b] == none {
			h.next[p] = h.head
			h.head = p
			buckets[b] = beforeBegin
			if h.next[p] != none {
				buckets[bbegin] = p
			}
			bbegin = b
		} else {
			h.next[p] = h.nextOf(buckets[b])
			h.setNext(buckets[b], p)
		}
		p = next
	}
	h.buckets = buckets
}

// readerMapOrder turns the order a reader created the top-level
// functions in (the file's) into the iteration order of LLVM's reader's
// map: the order llvm-profdata merge inserts them into its own.
func (p *Profile) readerMapOrder() {
	order, ok := p.hashOrder()
	if !ok {
		p.inserted = nil
		return
	}
	in := make([]string, len(order))
	for i, j := range order {
		in[i] = p.inserted[j]
	}
	p.inserted = in
}

// insertionOrder returns the names of p's top-level functions in the
// order they enter LLVM's map: p.inserted when it covers them, else
// profile order.
func (p *Profile) insertionOrder() []string {
	if _, ok := p.hashOrder(); ok {
		return p.inserted
	}
	names := make([]string, 0, len(p.Functions))
	for _, f := range p.SortedFunctions() {
		names = append(names, f.Name)
	}
	return names
}

// mapOrder returns the top-level functions in the iteration order of
// LLVM's map of them, when p knows the order they were inserted in and
// the names are plain or MD5 function names; otherwise in profile order
// (SortedFunctions). Functions removed after insertion are left out.
func (p *Profile) mapOrder() []*FunctionSamples {
	order, ok := p.hashOrder()
	if !ok {
		return p.SortedFunctions()
	}
	out := make([]*FunctionSamples, 0, len(p.Functions))
	for _, i := range order {
		if f := p.Functions[p.inserted[i]]; f != nil {
			out = append(out, f)
		}
	}
	return out
}

// hashOrder is hashOrder of p.inserted's keys; ok is false when p.inserted
// does not name every function once, or holds contexts.
func (p *Profile) hashOrder() (order []int, ok bool) {
	keys := make([]uint64, 0, len(p.inserted))
	distinct := make(map[uint64]bool, len(p.inserted))
	seen := 0
	for _, name := range p.inserted {
		k, err := nameHash(name, p.MD5)
		if err != nil || strings.HasPrefix(name, "[") || distinct[k] {
			return nil, false // contexts, or a name inserted twice
		}
		distinct[k] = true
		keys = append(keys, k)
		if p.Functions[name] != nil {
			seen++
		}
	}
	if seen != len(p.Functions) {
		return nil, false
	}
	return hashOrder(keys)
}

// ReaderOrder returns the top-level functions in the iteration order of
// the map LLVM's reader keeps them in (the order llvm-profdata overlap
// walks a test profile in), when p was read and that order is known;
// otherwise in profile order (SortedFunctions).
func (p *Profile) ReaderOrder() []*FunctionSamples {
	if _, ok := p.hashOrder(); !ok {
		return p.SortedFunctions()
	}
	out := make([]*FunctionSamples, 0, len(p.Functions))
	for _, name := range p.inserted {
		if f := p.Functions[name]; f != nil {
			out = append(out, f)
		}
	}
	return out
}
