package aggregate

// stackSlab makes stacks, their structs and frames cut from large slices:
// a recording of tens of thousands of distinct stacks is then a few
// hundred allocations, not two per stack.
type stackSlab struct {
	stacks []Stack
	locs   []Loc
}

const (
	slabStacks = 1024    // stacks per slice
	slabLocs   = 1 << 15 // frames per slice
)

// stack returns a new stack holding a copy of locs, without room to grow.
func (s *stackSlab) stack(locs []Loc) *Stack {
	if len(s.stacks) == 0 {
		s.stacks = make([]Stack, slabStacks)
	}
	st := &s.stacks[0]
	s.stacks = s.stacks[1:]
	st.Locs = s.copyLocs(locs)
	return st
}

func (s *stackSlab) copyLocs(locs []Loc) []Loc {
	n := len(locs)
	if n > slabLocs/8 {
		out := make([]Loc, n)
		copy(out, locs)
		return out
	}
	if n > cap(s.locs)-len(s.locs) {
		s.locs = make([]Loc, 0, slabLocs)
	}
	start := len(s.locs)
	s.locs = append(s.locs, locs...)
	return s.locs[start:len(s.locs):len(s.locs)]
}
