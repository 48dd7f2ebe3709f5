package aggregate

import (
	"bytes"
	"cmp"
	"encoding/binary"
)

// Rewrite replaces the frames of every stack by what fix returns for it
// and its index in c.Stacks (nil keeps them), merging the stacks that
// become equal; the stacks stay in canonical order. Stack repair (package
// fpskid) uses it.
//
// Only the stacks fix changes are keyed and sorted anew: they are merged
// into the others, which are in canonical order and distinct already.
func (c *StackCounts) Rewrite(fix func(i int, s *Stack) []Loc) {
	var kept []*Stack
	changed := map[string]*Stack{}
	var key []byte
	for i, s := range c.Stacks {
		locs := fix(i, s)
		if locs == nil {
			kept = append(kept, s)
			continue
		}
		key = AppendKey(key[:0], locs)
		if m := changed[string(key)]; m != nil {
			m.Count += s.Count
			m.Period += s.Period
			continue
		}
		changed[string(key)] = &Stack{Locs: locs, Count: s.Count, Period: s.Period}
	}
	if len(changed) > 0 {
		c.Stacks = mergeStacks(kept, sortedStacks(changed))
	}
}

// mergeStacks merges two lists of distinct stacks in canonical order into
// one, adding up the counts of a stack in both.
func mergeStacks(a, b []*Stack) []*Stack {
	out := make([]*Stack, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch compareKeys(a[0].Locs, b[0].Locs) {
		case -1:
			out, a = append(out, a[0]), a[1:]
		case 1:
			out, b = append(out, b[0]), b[1:]
		default:
			out = append(out, &Stack{Locs: a[0].Locs, Count: a[0].Count + b[0].Count, Period: a[0].Period + b[0].Period})
			a, b = a[1:], b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// compareKeys compares the canonical keys of two stacks (AppendKey) frame
// by frame: a frame's key is self-delimiting, so the first frames whose
// keys differ order the stacks.
func compareKeys(a, b []Loc) int {
	var ka, kb [2 * binary.MaxVarintLen64]byte
	for i := range min(len(a), len(b)) {
		if a[i] == b[i] {
			continue
		}
		return bytes.Compare(AppendKey(ka[:0], a[i:i+1]), AppendKey(kb[:0], b[i:i+1]))
	}
	return cmp.Compare(len(a), len(b))
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
