package aggregate

import (
	"maps"
	"math/rand/v2"
	"testing"
)

// TestIncrements adds the same increments to a map directly and through
// the cache: after flush the maps are equal, keys added 0 included, for
// key sets smaller and far larger than the cache.
func TestIncrements(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys int
	}{
		{"one key", 1},
		{"fits", 100},
		{"evicts", 5 * incrementSlots},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(tc.keys)))
			want, got := map[Range]uint64{}, map[Range]uint64{}
			var c increments[Range]
			for range 200000 {
				k := Range{Start: 0x400000 + uint64(r.IntN(tc.keys)), End: 0x400100}
				n := uint64(r.IntN(3)) // 0 too: the key must still be added
				want[k] += n
				c.add(got, k, k.Start, k.End, n)
			}
			c.flush(got)
			if !maps.Equal(got, want) {
				t.Fatalf("%d keys through the cache, %d directly; the counts differ", len(got), len(want))
			}
			c.flush(got)
			if !maps.Equal(got, want) {
				t.Fatal("a second flush changed the map")
			}
		})
	}
}
