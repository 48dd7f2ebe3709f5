package memprof

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"
)

// dump builds one raw dump of the version: one segment, the blocks (stack
// id, AllocCount, histogram) and the stacks.
func dump(version uint64, blocks []Block, stacks map[uint64][]uint64) []byte {
	le := binary.LittleEndian
	seg := le.AppendUint64(nil, 1)
	seg = le.AppendUint64(le.AppendUint64(le.AppendUint64(seg, 0x1000), 0x2000), 0)
	seg = append(le.AppendUint64(seg, 2), make([]byte, 32)...)
	seg[40], seg[41] = 0xab, 0xcd
	mib := le.AppendUint64(nil, uint64(len(blocks)))
	for _, b := range blocks {
		mib = le.AppendUint64(mib, b.StackID)
		last := NumFields
		if version == 3 {
			last = TagMaxLifetimeAccessDensity
		}
		for tag := 1; tag <= last; tag++ {
			v := b.MIB.Get(tag)
			if tag == TagAccessHistogramSize {
				v = uint64(len(b.MIB.Histogram))
			}
			if Fields[tag-1].Size == 4 {
				mib = le.AppendUint32(mib, uint32(v))
			} else {
				mib = le.AppendUint64(mib, v)
			}
		}
		for _, h := range b.MIB.Histogram {
			if version == 5 {
				mib = le.AppendUint16(mib, uint16(h))
			} else {
				mib = le.AppendUint64(mib, h)
			}
		}
	}
	st := le.AppendUint64(nil, uint64(len(stacks)))
	for _, id := range slices.Sorted(mapsKeys(stacks)) {
		st = le.AppendUint64(le.AppendUint64(st, id), uint64(len(stacks[id])))
		for _, pc := range stacks[id] {
			st = le.AppendUint64(st, pc)
		}
	}
	h := make([]byte, rawHeaderSize)
	le.PutUint64(h, RawMagic)
	le.PutUint64(h[8:], version)
	le.PutUint64(h[24:], rawHeaderSize)
	le.PutUint64(h[32:], uint64(rawHeaderSize+len(seg)))
	le.PutUint64(h[40:], uint64(rawHeaderSize+len(seg)+len(mib)))
	out := slices.Concat(h, seg, mib, st)
	le.PutUint64(out[16:], uint64(len(out)))
	return out
}

func mapsKeys(m map[uint64][]uint64) func(func(uint64) bool) {
	return func(yield func(uint64) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func block(id, count uint64, hist ...uint64) Block {
	m := MIB{Present: AllPresent, Histogram: hist}
	m.Values[TagAllocCount-1] = count
	m.Values[TagMinSize-1], m.Values[TagMaxSize-1] = 8, 8
	m.Values[TagAccessHistogramSize-1] = uint64(len(hist))
	return Block{StackID: id, MIB: m}
}

func TestReadRaw(t *testing.T) {
	stacks := map[uint64][]uint64{1: {0x1010, 0x1020}, 2: {0x1030}}
	one := dump(5, []Block{block(1, 1, 3, 4096+1), block(2, 2)}, stacks)
	tests := []struct {
		name      string
		in        []byte
		blocks    int
		count1    uint64
		histogram []uint64
	}{
		{"v5 with encoded histogram", one, 2, 1, []uint64{3, 2}},
		{"v4", dump(4, []Block{block(1, 1, 7)}, stacks), 1, 1, []uint64{7}},
		{"v3 without histograms", dump(3, []Block{block(1, 5)}, stacks), 1, 5, nil},
		{"two dumps merged", slices.Concat(one, dump(5, []Block{block(1, 3, 1)}, stacks)), 2, 4, []uint64{4, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ReadRaw(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Blocks) != tc.blocks || r.Blocks[0].MIB.Get(TagAllocCount) != tc.count1 {
				t.Errorf("blocks %+v", r.Blocks)
			}
			if !slices.Equal(r.Blocks[0].MIB.Histogram, tc.histogram) {
				t.Errorf("histogram %v, want %v", r.Blocks[0].MIB.Histogram, tc.histogram)
			}
			if len(r.Segments) != 1 || BuildIDString(r.Segments[0].BuildID) != "abcd" || !slices.Equal(r.Stacks[1], stacks[1]) {
				t.Errorf("segments %+v stacks %v", r.Segments, r.Stacks)
			}
		})
	}
}

func TestReadRawErrors(t *testing.T) {
	good := dump(5, []Block{block(1, 1)}, map[uint64][]uint64{1: {0x1010}})
	badVersion := slices.Clone(good)
	badVersion[8] = 9
	shortStacks := slices.Clone(good)
	binary.LittleEndian.PutUint64(shortStacks[len(shortStacks)-16:], 1<<40)
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, ErrEmpty},
		{"not memprof", []byte("12345678"), ErrBadMagic},
		{"header cut", good[:20], ErrTruncated},
		{"version", badVersion, ErrVersion},
		{"size beyond the file", good[:len(good)-8], ErrMalformed},
		{"stack count too large", shortStacks, ErrTruncated},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ReadRaw(tc.in); !errors.Is(err, tc.want) {
				t.Errorf("error %v, want %v", err, tc.want)
			}
		})
	}
}

func TestDecodeHistogramCount(t *testing.T) {
	for _, tc := range []struct {
		in   uint16
		want uint64
	}{{0, 0}, {4095, 4095}, {1<<12 | 2049, 4098}, {15<<12 | 4095, 4095 << 15}} {
		if got := decodeHistogramCount(tc.in); got != tc.want {
			t.Errorf("decode(%#x) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func FuzzReadRaw(f *testing.F) {
	f.Add(dump(5, []Block{block(1, 1, 2)}, map[uint64][]uint64{1: {0x1010}}))
	f.Add(dump(3, []Block{block(1, 1)}, map[uint64][]uint64{1: {0x1010, 0x1020}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ReadRaw(b)
		if err == nil && r == nil {
			t.Fatal("no profile and no error")
		}
		BuildIDs(b)
	})
}

func TestGlibcRand(t *testing.T) {
	// glibc: srand(1); the first rand() values.
	g := newGlibcRand(1)
	want := []uint32{1804289383, 846930886, 1681692777, 1714636915, 1957747793}
	for i, w := range want {
		if got := g.next(); got != w {
			t.Fatalf("rand #%d = %d, want %d", i, got, w)
		}
	}
}
