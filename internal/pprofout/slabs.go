package pprofout

import "github.com/google/pprof/profile"

// slabs hands out locations and line lists cut from larger slices: a
// profile of many locations is then a few hundred allocations, not tens
// of thousands.
type slabs struct {
	freeLocs  []profile.Location
	freeLines []profile.Line
}

// slabSize is how many locations, or lines, one slice holds.
const slabSize = 1024

// location returns a new zero location.
func (s *slabs) location() *profile.Location {
	if len(s.freeLocs) == 0 {
		s.freeLocs = make([]profile.Location, slabSize)
	}
	loc := &s.freeLocs[0]
	s.freeLocs = s.freeLocs[1:]
	return loc
}

// lines returns n zero lines, at full capacity: an append to them
// allocates anew.
func (s *slabs) lines(n int) []profile.Line {
	if n > len(s.freeLines) {
		if n > slabSize/4 {
			return make([]profile.Line, n)
		}
		s.freeLines = make([]profile.Line, slabSize)
	}
	l := s.freeLines[:n:n]
	s.freeLines = s.freeLines[n:]
	return l
}
