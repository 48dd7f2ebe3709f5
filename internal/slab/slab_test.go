package slab

import "testing"

// TestSlab checks that what the slab hands out is zero, apart and at full
// capacity, however requests fall across chunks.
func TestSlab(t *testing.T) {
	tests := []struct {
		name  string
		chunk int
		sizes []int
	}{
		{"default chunk", 0, []int{1, 3, 128, 129, 1, 100, 7}},
		{"small chunk", 16, []int{1, 2, 2, 3, 1, 1, 1, 1, 2}},
		{"own slices", 8, []int{2, 9, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Slab[int]
			s.Chunk = tt.chunk
			var got [][]int
			for i, n := range tt.sizes {
				v := s.Make(n)
				if len(v) != n || cap(v) != n {
					t.Fatalf("Make(%d): len %d cap %d", n, len(v), cap(v))
				}
				for j := range v {
					if v[j] != 0 {
						t.Fatalf("Make(%d)[%d] = %d, not zero", n, j, v[j])
					}
					v[j] = i + 1
				}
				got = append(got, v)
			}
			for i, v := range got {
				for j := range v {
					if v[j] != i+1 {
						t.Fatalf("request %d overwritten: [%d] = %d", i, j, v[j])
					}
				}
			}
			p := s.New()
			if *p != 0 {
				t.Errorf("New: %d", *p)
			}
			c := s.Copy([]int{4, 5, 6})
			if len(c) != 3 || cap(c) != 3 || c[0] != 4 || c[2] != 6 {
				t.Errorf("Copy: %v (cap %d)", c, cap(c))
			}
		})
	}
}

// TestMakeDistinct: each request has the length asked for, no room to
// grow into the next one, and requests never share values (the sizes of
// the location lines a profile asks for).
func TestMakeDistinct(t *testing.T) {
	var s Slab[int64]
	seen := map[*int64]bool{}
	for _, n := range []int{1, 3, 0, 1024 / 8, 1024/8 + 1, 700, 2, 1024} {
		l := s.Make(n)
		if len(l) != n || cap(l) != n {
			t.Fatalf("Make(%d): len %d cap %d", n, len(l), cap(l))
		}
		for i := range l {
			if seen[&l[i]] {
				t.Fatalf("Make(%d): value %d handed out twice", n, i)
			}
			seen[&l[i]] = true
		}
	}
}

func TestNewDistinct(t *testing.T) {
	var s Slab[int]
	seen := map[*int]bool{}
	for i := 0; i < 3*1024; i++ {
		v := s.New()
		if seen[v] || *v != 0 {
			t.Fatalf("value %d reused or not zero", i)
		}
		seen[v] = true
		*v = 1
	}
}

// TestCopy: a copy holds the values, at full capacity, in memory of its
// own (a stack's frames, copied from the aggregator's buffer).
func TestCopy(t *testing.T) {
	s := Slab[uint64]{Chunk: 1 << 15}
	long := make([]uint64, 1<<15/8+1)
	for _, n := range []int{1, 0, 20, 1 << 15 / 8, len(long), 3} {
		v := long[:n]
		for i := range v {
			v[i] = uint64(n<<20 | i)
		}
		c := s.Copy(v)
		if len(c) != n || cap(c) != n {
			t.Fatalf("copy of %d: len %d cap %d", n, len(c), cap(c))
		}
		for i := range c {
			if c[i] != v[i] {
				t.Fatalf("copy of %d: value %d is %d, want %d", n, i, c[i], v[i])
			}
		}
		if n > 0 && &c[0] == &v[0] {
			t.Fatal("the copy shares its values with the original")
		}
	}
}
