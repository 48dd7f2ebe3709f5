package aggregate

// Rewrite replaces the frames of every stack by what fix returns (nil
// keeps them), merging the stacks that become equal; the stacks stay in
// canonical order. Stack repair (package fpskid) uses it.
func (c *StackCounts) Rewrite(fix func(*Stack) []Loc) {
	merged := make(map[string]*Stack, len(c.Stacks))
	var key []byte
	for _, s := range c.Stacks {
		locs := s.Locs
		if l := fix(s); l != nil {
			locs = l
		}
		key = appendKey(key[:0], locs)
		if m := merged[string(key)]; m != nil {
			m.Count += s.Count
			m.Period += s.Period
			continue
		}
		merged[string(key)] = &Stack{Locs: locs, Count: s.Count, Period: s.Period}
	}
	c.Stacks = sortedStacks(merged)
}

// UnknownSiteObject returns the object holding the frames of profiled
// binary bi that were inferred without their call site (see
// Object.UnknownSite), adding it on first use.
func (c *StackCounts) UnknownSiteObject(bi int) int32 {
	path := ""
	for i, o := range c.Objects {
		if o.Binary != bi {
			continue
		}
		if o.UnknownSite {
			return int32(i)
		}
		path = o.Path
	}
	c.Objects = append(c.Objects, Object{Path: path, Binary: bi, UnknownSite: true})
	return int32(len(c.Objects) - 1)
}
