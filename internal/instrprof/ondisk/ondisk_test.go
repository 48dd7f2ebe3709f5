package ondisk

import (
	"encoding/binary"
	"testing"
)

func TestBuckets(t *testing.T) {
	for _, tc := range []struct{ entries, buckets int }{{0, 1}, {2, 1}, {3, 8}, {48, 128}, {100, 256}} {
		bs := Buckets(tc.entries, func(i int) uint64 { return uint64(i) * 0x9e3779b97f4a7c15 })
		n := 0
		for _, c := range bs {
			n += len(c)
		}
		if len(bs) != tc.buckets || n != tc.entries {
			t.Errorf("%d entries: %d buckets holding %d, want %d", tc.entries, len(bs), n, tc.buckets)
		}
	}
}

func TestEmitAlignsToTheFile(t *testing.T) {
	hash := func(i int) uint64 { return uint64(i) }
	entry := func(b []byte, i int) []byte { return append(b, byte(i)) }
	b, off := Emit(make([]byte, 3), 5, 3, hash, entry)
	if off%8 != 0 {
		t.Fatalf("index at file offset %d, not 8-aligned", off)
	}
	idx := b[off-5:]
	if nb := binary.LittleEndian.Uint64(idx); nb != 8 || binary.LittleEndian.Uint64(idx[8:]) != 3 {
		t.Errorf("index header %x", idx[:16])
	}
	first := binary.LittleEndian.Uint64(idx[16:])
	if first != 5+3 {
		t.Errorf("bucket 0 at %d, want file offset 8", first)
	}
}
