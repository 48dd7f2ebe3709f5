package memprof

import (
	"encoding/binary"
	"fmt"
)

// reader decodes the little-endian words of one dump. Its error is
// sticky: after the first, reads return zeros.
type reader struct {
	b    []byte
	pos  int
	base int // file offset of b[0]
	err  error
}

// at moves to offset off of the dump.
func (r *reader) at(off uint64) *reader {
	if r.err == nil && off > uint64(len(r.b)) {
		r.fail(fmt.Errorf("section offset %d past the dump's %d bytes: %w", off, len(r.b), ErrMalformed))
	}
	if r.err == nil {
		r.pos = int(off)
	}
	return r
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = fmt.Errorf("offset %d: %w", r.base+r.pos, err)
	}
}

// bytes returns the next n bytes, nil past the end.
func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.pos {
		r.fail(ErrTruncated)
		return nil
	}
	out := r.b[r.pos : r.pos+n]
	r.pos += n
	return out
}

// uint reads an n-byte little-endian unsigned integer (n is 2, 4 or 8).
func (r *reader) uint(n int) uint64 {
	b := r.bytes(n)
	switch {
	case b == nil:
		return 0
	case n == 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case n == 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func (r *reader) u64() uint64 { return r.uint(8) }

// count reads an item count and checks that that many items of at least
// size bytes each fit in what is left.
func (r *reader) count(size int) int {
	return r.fitting(r.u64(), size)
}

// fitting returns n when n items of at least size bytes each fit in
// what is left, else fails and returns 0.
func (r *reader) fitting(n uint64, size int) int {
	if r.err == nil && n > uint64(len(r.b)-r.pos)/uint64(size) {
		r.fail(fmt.Errorf("count %d: %w", n, ErrTruncated))
		return 0
	}
	return int(n)
}

func (r *reader) segments() []Segment {
	n := r.count(segmentSize)
	segs := make([]Segment, 0, n)
	for range n {
		s := Segment{Start: r.u64(), End: r.u64(), Offset: r.u64()}
		size := r.u64()
		id := r.bytes(maxBuildIDSize)
		if r.err == nil && size > maxBuildIDSize {
			r.fail(fmt.Errorf("build id size %d: %w", size, ErrMalformed))
		}
		if r.err != nil {
			return nil
		}
		s.BuildID = append([]byte(nil), id[:size]...)
		segs = append(segs, s)
	}
	return segs
}

// blocks reads the MIB section of a dump of the version.
func (r *reader) blocks(version uint64) []Block {
	n := r.count(8 + v3MIBSize)
	out := make([]Block, 0, n)
	for range n {
		id := r.u64()
		m := r.mib(version)
		if r.err != nil {
			return nil
		}
		out = append(out, Block{StackID: id, MIB: m})
	}
	return out
}

// mib reads one MIB: version 3 has no histogram fields; 4 follows the
// block with 8-byte histogram entries, 5 with 2-byte encoded ones.
func (r *reader) mib(version uint64) MIB {
	m := MIB{Present: AllPresent}
	last := NumFields
	if version == 3 {
		last = TagMaxLifetimeAccessDensity
	}
	for tag := 1; tag <= last; tag++ {
		m.Values[tag-1] = r.uint(Fields[tag-1].Size)
	}
	n := m.Get(TagAccessHistogramSize)
	entry := 8
	if version >= 5 {
		entry = 2
	}
	if r.err == nil && n > uint64(len(r.b)-r.pos)/uint64(entry) {
		r.fail(fmt.Errorf("histogram of %d entries: %w", n, ErrTruncated))
	}
	for i := uint64(0); i < n && r.err == nil; i++ {
		if entry == 2 {
			m.Histogram = append(m.Histogram, decodeHistogramCount(uint16(r.uint(2))))
		} else {
			m.Histogram = append(m.Histogram, r.u64())
		}
	}
	return m
}

// stack is one call stack of a dump.
type stack struct {
	id  uint64
	pcs []uint64
}

// stacks reads the call stack section: id, count, program counters. A
// repeated id keeps its last stack, as llvm's map does.
func (r *reader) stacks() []stack {
	n := r.count(16)
	out := make([]stack, 0, n)
	index := map[uint64]int{}
	for range n {
		id := r.u64()
		pcs := make([]uint64, r.count(8))
		for i := range pcs {
			pcs[i] = r.u64()
		}
		if r.err != nil {
			return nil
		}
		if i, ok := index[id]; ok {
			out[i].pcs = pcs
			continue
		}
		index[id] = len(out)
		out = append(out, stack{id, pcs})
	}
	return out
}
