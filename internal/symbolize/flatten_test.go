package symbolize

import (
	"math/rand"
	"slices"
	"testing"
)

// TestFlatten: each address goes to the last subroutine (in DIE order)
// of those whose ranges cover it, and touching segments of one owner are
// merged.
func TestFlatten(t *testing.T) {
	for _, tc := range []struct {
		name string
		ivs  []interval
		want []segment
	}{
		{"none", nil, []segment{}},
		{"one", []interval{{10, 20, 0}}, []segment{{10, 20, 0}}},
		{"nested", []interval{{10, 40, 0}, {20, 30, 1}}, []segment{{10, 20, 0}, {20, 30, 1}, {30, 40, 0}}},
		{"gap", []interval{{10, 20, 0}, {30, 40, 1}}, []segment{{10, 20, 0}, {30, 40, 1}}},
		{"two ranges of one subroutine", []interval{{10, 20, 0}, {20, 30, 0}}, []segment{{10, 30, 0}}},
		{"earlier subroutine over a later one", []interval{{20, 30, 1}, {10, 40, 0}}, []segment{{10, 20, 0}, {20, 30, 1}, {30, 40, 0}}},
		{"deeply nested", []interval{{0, 100, 0}, {10, 90, 1}, {20, 80, 2}, {30, 40, 3}, {50, 60, 3}},
			[]segment{{0, 10, 0}, {10, 20, 1}, {20, 30, 2}, {30, 40, 3}, {40, 50, 2}, {50, 60, 3}, {60, 80, 2}, {80, 90, 1}, {90, 100, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := flatten(slices.Clone(tc.ivs)); !slices.Equal(got, tc.want) {
				t.Errorf("flatten(%v)\n= %v\nwant %v", tc.ivs, got, tc.want)
			}
		})
	}
}

// TestFlattenRandom checks flatten address by address against the
// definition on random ranges.
func TestFlattenRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for range 200 {
		var ivs []interval
		for i := range rng.Intn(30) {
			for range 1 + rng.Intn(3) {
				start := uint64(rng.Intn(200))
				ivs = append(ivs, interval{start, start + 1 + uint64(rng.Intn(40)), int32(i)})
			}
		}
		segs := flatten(slices.Clone(ivs))
		for a := uint64(0); a < 250; a++ {
			want := int32(-1)
			for _, iv := range ivs {
				if iv.start <= a && a < iv.end {
					want = max(want, iv.sub)
				}
			}
			if got := subroutineAt(segs, a); got != want {
				t.Fatalf("%v: address %d in %d, want %d (segments %v)", ivs, a, got, want, segs)
			}
		}
	}
}
