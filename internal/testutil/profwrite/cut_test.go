package profwrite

import (
	"slices"
	"testing"
)

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		samples, n int
		want       []int // sizes of the parts
	}{
		{10, 3, []int{3, 3, 4}},
		{10, 10, []int{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
		{3, 5, []int{1, 1, 1}},
		{0, 4, []int{0}},
		{5, 0, []int{5}},
	} {
		samples := make([]Sample, tc.samples)
		for i := range samples {
			samples[i].timeNS = uint64(i)
		}
		var sizes []int
		var next uint64
		for _, p := range Cut(samples, tc.n) {
			sizes = append(sizes, len(p))
			for _, s := range p {
				if s.timeNS != next {
					t.Errorf("Cut(%d, %d): sample %d where %d is next", tc.samples, tc.n, s.timeNS, next)
				}
				next++
			}
		}
		if !slices.Equal(sizes, tc.want) {
			t.Errorf("Cut(%d, %d) sizes %v, want %v", tc.samples, tc.n, sizes, tc.want)
		}
	}
}
