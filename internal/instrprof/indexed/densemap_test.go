package indexed

import (
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
)

// TestDenseMapOrder: records of one name come out in llvm-profdata-19's
// order (read from its output with llvm-profdata-19 show --all-functions
// of text inputs holding these CFG hashes in this order).
func TestDenseMapOrder(t *testing.T) {
	tests := []struct{ in, want []uint64 }{
		{[]uint64{1, 2}, []uint64{2, 1}},
		{[]uint64{3, 4}, []uint64{4, 3}},
		{[]uint64{5, 6}, []uint64{5, 6}},
		{[]uint64{923492226591, 67095815869182857}, []uint64{923492226591, 67095815869182857}},
		{[]uint64{1, 2, 3}, []uint64{2, 1, 3}},
		{[]uint64{4, 5, 6}, []uint64{6, 4, 5}},
		{[]uint64{10, 11, 12}, []uint64{11, 12, 10}},
		{[]uint64{100, 200, 300, 400, 500}, []uint64{400, 500, 200, 300, 100}},
		{seq(1, 50), []uint64{0x17, 0x1b, 0x2e, 0x13, 0x1f, 4, 0x27, 0x26, 0xb, 0xc, 0x2a, 8, 0xf, 0x23, 3, 0x16, 0x31, 9, 0x18, 0x10,
			0x11, 0x24, 0x25, 0x2b, 0xa, 0x1e, 0x32, 2, 6, 0x15, 0x1d, 0x2c, 0x29, 0x2d, 0x12, 0x30, 5, 0x19, 0x1c, 1,
			0x1a, 0x20, 0x2f, 0x22, 0x28, 0xd, 0xe, 7, 0x14, 0x21}},
	}
	for _, tt := range tests {
		var recs []*instrprof.Func
		for _, h := range tt.in {
			recs = append(recs, &instrprof.Func{Record: instrprof.Record{Name: "foo", Hash: h}})
		}
		var got []uint64
		for _, f := range denseMapOrder(recs) {
			got = append(got, f.Hash)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("denseMapOrder(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func seq(from, to uint64) []uint64 {
	var s []uint64
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}
