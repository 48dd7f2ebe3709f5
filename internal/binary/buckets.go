package binary

// bucketIndex speeds up finding the range of an address: the range starts
// are bucketed by address (buckets of 2^shift bytes, shift chosen so there
// is about one range per bucket), and first[b] is the index of the first
// range starting at or after bucket b. A lookup is then a short scan.
type bucketIndex struct {
	lo    uint64   // start of bucket 0: the first range start
	shift uint     // log2 of the bucket size
	first []uint32 // nil: no index (too sparse), binary search instead
}

func newBucketIndex(starts []uint64) bucketIndex {
	if len(starts) == 0 || len(starts) > 1<<31 {
		return bucketIndex{}
	}
	lo, span := starts[0], starts[len(starts)-1]-starts[0]
	limit := uint64(2*len(starts) + 1024)
	shift := uint(4)
	for ; shift < 40 && span>>shift >= limit; shift++ {
	}
	if span>>shift >= limit {
		return bucketIndex{}
	}
	first := make([]uint32, span>>shift+1)
	i := 0
	for b := range first {
		for i < len(starts) && starts[i] < lo+uint64(b)<<shift {
			i++
		}
		first[b] = uint32(i)
	}
	return bucketIndex{lo: lo, shift: shift, first: first}
}

// firstAfter returns the index of the first start after addr; ok is false
// when there is no index.
func (x *bucketIndex) firstAfter(starts []uint64, addr uint64) (int, bool) {
	if x.first == nil {
		return 0, false
	}
	if addr < x.lo {
		return 0, true
	}
	b := (addr - x.lo) >> x.shift
	if b >= uint64(len(x.first)) {
		return len(starts), true
	}
	i := int(x.first[b])
	for i < len(starts) && starts[i] <= addr {
		i++
	}
	return i, true
}
