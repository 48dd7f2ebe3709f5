// Package ondisk lays out LLVM's on-disk chained hash tables
// (llvm/Support/OnDiskHashTable.h), which indexed profiles use for their
// function records and MemProf records, frames and call stacks.
//
// In: the entries, each with its 64-bit hash, in insertion order, and a
// function appending an entry's key and data. Out: the table appended to
// a byte slice (the payload, buckets of entries, then the bucket index)
// and the index's offset, laid out byte for byte as LLVM's
// OnDiskChainedHashTableGenerator lays it out.
package ondisk

import "encoding/binary"

// Emit appends the table of n entries to b, whose start is offset base
// of the output file (bucket offsets and alignment are the file's), and
// returns it and the file offset of the bucket index. hash(i) is entry
// i's hash; entry(b, i) appends entry i's key and data lengths, key and
// data. Each entry is written after its hash.
func Emit(b []byte, base uint64, n int, hash func(i int) uint64, entry func(b []byte, i int) []byte) ([]byte, uint64) {
	buckets := Buckets(n, hash)
	offsets := make([]uint64, len(buckets))
	for i, chain := range buckets {
		if len(chain) == 0 {
			continue
		}
		offsets[i] = base + uint64(len(b))
		b = binary.LittleEndian.AppendUint16(b, uint16(len(chain)))
		for _, e := range chain {
			b = binary.LittleEndian.AppendUint64(b, hash(e))
			b = entry(b, e)
		}
	}
	for (base+uint64(len(b)))%8 != 0 {
		b = append(b, 0)
	}
	tableOff := base + uint64(len(b))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(buckets)))
	b = binary.LittleEndian.AppendUint64(b, uint64(n))
	for _, o := range offsets {
		b = binary.LittleEndian.AppendUint64(b, o)
	}
	return b, tableOff
}

// Buckets places entries 0..n-1 in buckets the way LLVM's generator does:
// 64 buckets doubled when an insertion reaches 3/4 load, each entry
// prepended to its chain, then resized to the next power of two above
// 4/3 of the entries (one bucket for up to 2).
func Buckets(n int, hash func(i int) uint64) [][]int {
	buckets := make([][]int, 64)
	insert := func(bs [][]int, e int) {
		i := hash(e) & uint64(len(bs)-1)
		bs[i] = append([]int{e}, bs[i]...)
	}
	resize := func(size int) {
		nb := make([][]int, size)
		for _, chain := range buckets {
			for _, e := range chain {
				insert(nb, e)
			}
		}
		buckets = nb
	}
	for e := range n {
		if 4*(e+1) >= 3*len(buckets) {
			resize(2 * len(buckets))
		}
		insert(buckets, e)
	}
	target := 1
	if n > 2 {
		target = nextPowerOf2(n * 4 / 3)
	}
	if target != len(buckets) {
		resize(target)
	}
	return buckets
}

// nextPowerOf2 is the smallest power of two strictly greater than n.
func nextPowerOf2(n int) int {
	p := 1
	for p <= n {
		p <<= 1
	}
	return p
}
