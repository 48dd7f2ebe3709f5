package densemap

import (
	"slices"
	"testing"
)

func TestOrder(t *testing.T) {
	keys := []uint64{5, 1, 99, 7}
	byBucket := func(inline int) []int {
		size := max(inline, 64)
		idx := slices.Clone([]int{0, 1, 2, 3})
		slices.SortStableFunc(idx, func(a, b int) int { return int(Hash(keys[a])&uint32(size-1)) - int(Hash(keys[b])&uint32(size-1)) })
		return idx
	}
	tests := []struct {
		name   string
		inline int
		want   []int
	}{
		{"DenseMap: 64 buckets, by hash", 0, byBucket(0)},
		{"SmallDenseMap<4>: grown to 64 at the 3rd key", 4, byBucket(64)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Order(keys, tc.inline); !slices.Equal(got, tc.want) {
				t.Errorf("Order = %v, want %v", got, tc.want)
			}
		})
	}
	if got := Order(nil, 0); len(got) != 0 {
		t.Errorf("Order(nil) = %v", got)
	}
}

func TestOrderGrows(t *testing.T) {
	keys := make([]uint64, 200)
	for i := range keys {
		keys[i] = uint64(i) * 1000003
	}
	got := Order(keys, 0)
	if len(got) != len(keys) {
		t.Fatalf("%d of %d keys", len(got), len(keys))
	}
	seen := map[int]bool{}
	for _, i := range got {
		seen[i] = true
	}
	if len(seen) != len(keys) {
		t.Errorf("keys repeated or lost: %d distinct", len(seen))
	}
}
