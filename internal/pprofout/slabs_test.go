package pprofout

import "testing"

// TestSlabLines: each list has the length asked for, no room to grow into
// the next one, and lists never share lines.
func TestSlabLines(t *testing.T) {
	var s slabs
	seen := map[*int64]bool{}
	for _, n := range []int{1, 3, 0, slabSize / 4, slabSize/4 + 1, 700, 2, slabSize} {
		l := s.lines(n)
		if len(l) != n || cap(l) != n {
			t.Fatalf("lines(%d): len %d cap %d", n, len(l), cap(l))
		}
		for i := range l {
			if seen[&l[i].Line] {
				t.Fatalf("lines(%d): line %d handed out twice", n, i)
			}
			seen[&l[i].Line] = true
		}
	}
}

func TestSlabLocationsDistinct(t *testing.T) {
	var s slabs
	seen := map[any]bool{}
	for i := 0; i < 3*slabSize; i++ {
		loc := s.location()
		if seen[loc] || loc.ID != 0 {
			t.Fatalf("location %d reused or not zero", i)
		}
		seen[loc] = true
		loc.ID = 1
	}
}
