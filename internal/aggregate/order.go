package aggregate

import (
	"cmp"
	"slices"
)

// Inputs whose samples do not come in time order (the files of continuous
// profilers, in any order and grouping) number their objects by when each
// was first sampled, not first read: KeepEarliest keeps the earliest
// sighting of each object, and TimeOrdered numbers the objects by it, as
// a recording read in time order numbers them.

// KeepEarliest has each object's First be its earliest sighting by time
// (then frame position), not its first in the input.
func (a *Stacks) KeepEarliest() { a.earliest = true }

// noteSeen makes the current sighting object i's First when earlier.
func (a *Stacks) noteSeen(i int32) {
	o := &a.counts.Objects[i]
	if earlierSeen(a.seen, o.First) {
		o.First = a.seen
	}
}

// earlierSeen orders sightings by time, then frame position: not by
// sample number, which counts the samples in the order they were read.
func earlierSeen(s, o Seen) bool {
	return cmp.Or(cmp.Compare(s.NS, o.NS), cmp.Compare(s.Frame, o.Frame)) < 0
}

// TimeOrdered returns c with its objects numbered by their First (time,
// frame position, then path) and its stacks in key order again.
func (c *StackCounts) TimeOrdered() *StackCounts {
	order := make([]int32, len(c.Objects))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(x, y int32) int {
		a, b := &c.Objects[x], &c.Objects[y]
		return cmp.Or(cmp.Compare(a.First.NS, b.First.NS), cmp.Compare(a.First.Frame, b.First.Frame), cmp.Compare(a.Path, b.Path))
	})
	ids := make([]int32, len(order))
	out := *c
	out.Objects = make([]Object, len(order))
	for i, old := range order {
		ids[old] = int32(i)
		out.Objects[i] = c.Objects[old]
	}
	out.Symbols = make(map[Loc]string, len(c.Symbols))
	for l, name := range c.Symbols {
		out.Symbols[Loc{ids[l.Obj], l.Addr}] = name
	}
	out.Stacks = renumberedStacks(c.Stacks, ids)
	return &out
}

// renumberedStacks are stacks with their objects' numbers ids[old], in
// key order.
func renumberedStacks(stacks []*Stack, ids []int32) []*Stack {
	m := make(map[string]*Stack, len(stacks))
	var key []byte
	for _, s := range stacks {
		locs := make([]Loc, len(s.Locs))
		for i, l := range s.Locs {
			locs[i] = Loc{ids[l.Obj], l.Addr}
		}
		key = AppendKey(key[:0], locs)
		m[string(key)] = &Stack{Locs: locs, Count: s.Count, Period: s.Period}
	}
	return sortedStacks(m)
}
