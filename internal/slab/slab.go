// Package slab hands out values and short slices cut from larger slices,
// so that many small objects that live as long as each other (the stacks
// of a recording, the locations of a profile) cost a few large
// allocations, not one each.
//
// In: how many values are wanted, or values to copy. Out: zero values or
// copies, at full capacity (an append to them allocates anew).
package slab

// Slab cuts values of T from chunks of Chunk values (1024 when 0). A
// request of more than an eighth of a chunk gets a slice of its own.
type Slab[T any] struct {
	Chunk int
	free  []T
}

// New returns a new zero value.
func (s *Slab[T]) New() *T { return &s.Make(1)[0] }

// Make returns n zero values.
func (s *Slab[T]) Make(n int) []T {
	chunk := s.Chunk
	if chunk <= 0 {
		chunk = 1024
	}
	if n > chunk/8 {
		return make([]T, n)
	}
	if n > len(s.free) {
		s.free = make([]T, chunk)
	}
	v := s.free[:n:n]
	s.free = s.free[n:]
	return v
}

// Copy returns a copy of v.
func (s *Slab[T]) Copy(v []T) []T {
	out := s.Make(len(v))
	copy(out, v)
	return out
}
