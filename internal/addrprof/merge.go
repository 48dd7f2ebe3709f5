package addrprof

import (
	"fmt"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/aggregate"
)

// Merge adds up address profiles of the same binaries (names are their
// files', for errors): counts and statistics add, the first timestamp is
// the least and the last the greatest, objects are one per path, first met
// when the earliest profile met them, and a place named differently keeps
// the lesser name. Every operation is associative and commutative, and the
// result is canonical: any grouping and order of the same profiles gives
// the same profile.
func Merge(ps []*Profile, names []string) (*Profile, error) {
	if len(ps) == 0 {
		return nil, fmt.Errorf("no address profile to merge")
	}
	var m *merger
	for i, p := range ps {
		var err error
		if m, err = m.add(p, names[i]); err != nil {
			return nil, err
		}
	}
	return m.profile(), nil
}

// binarySet names p's binaries by identity, in canonical order.
func binarySet(p *Profile) string {
	ids := make([]string, len(p.Binaries))
	for i, b := range p.Binaries {
		ids[i] = b.Identity()
	}
	slices.Sort(ids)
	return "[" + strings.Join(ids, " ") + "]"
}

// merger holds the sum so far.
type merger struct {
	first   string // the first profile's name and binaries, for errors
	binSet  string
	bins    []Binary
	counts  aggregate.StackCounts
	objects map[string]int32 // by path
	stacks  map[string]*aggregate.Stack
	key     []byte
}

func newMerger(p *Profile, name string) *merger {
	return &merger{first: name, binSet: binarySet(p), bins: slices.Clone(p.Binaries),
		objects: map[string]int32{}, stacks: map[string]*aggregate.Stack{},
		counts: aggregate.StackCounts{Symbols: map[aggregate.Loc]string{}, Events: map[string]uint64{},
			Stats: aggregate.StackStats{PerBinary: make([]uint64, len(p.Binaries))}}}
}

// addBinaries keeps, of each binary's paths, the least: profiles made on
// different hosts may name one build differently.
func (m *merger) addBinaries(bins []Binary) {
	for i, b := range bins {
		m.bins[i].Path = min(m.bins[i].Path, b.Path)
	}
}

// add adds p, named name, to the sum m (nil: none yet) and returns the
// sum; profiles of other binaries than the first's are refused in one line.
func (m *merger) add(p *Profile, name string) (*merger, error) {
	p = Canonical(p)
	if m == nil {
		m = newMerger(p, name)
	} else if set := binarySet(p); set != m.binSet {
		return nil, fmt.Errorf("cannot merge address profiles of different binaries: %s has %s, %s has %s", m.first, m.binSet, name, set)
	}
	m.addProfile(p)
	return m, nil
}

// addProfile adds p, canonical: its binaries are in the order of m.bins.
func (m *merger) addProfile(p *Profile) {
	c := p.Counts
	m.addBinaries(p.Binaries)
	ids := make([]int32, len(c.Objects))
	for i, o := range c.Objects {
		ids[i] = m.object(o)
	}
	for _, s := range c.Stacks {
		m.addStack(s, ids)
	}
	for l, name := range c.Symbols {
		l.Obj = ids[l.Obj]
		m.counts.Symbols[l] = lesserName(m.counts.Symbols, l, name)
	}
	for ev, n := range c.Events {
		m.counts.Events[ev] += n
	}
	m.addTimes(c.FirstNS, c.LastNS)
	addStats(&m.counts.Stats, &c.Stats)
}

// object returns the index of o's path, o taking the place of the object
// there when it was met first.
func (m *merger) object(o aggregate.Object) int32 {
	i, ok := m.objects[o.Path]
	if !ok {
		i = int32(len(m.counts.Objects))
		m.objects[o.Path] = i
		m.counts.Objects = append(m.counts.Objects, o)
		return i
	}
	if old := &m.counts.Objects[i]; metBefore(o, *old) {
		*old = o
	}
	return i
}

// metBefore orders two objects of one path: by when they were first met,
// then binaries before DSOs before the kernel.
func metBefore(a, b aggregate.Object) bool {
	if c := a.First.Compare(b.First); c != 0 {
		return c < 0
	}
	return objectRank(a) < objectRank(b)
}

func objectRank(o aggregate.Object) int {
	switch {
	case o.Binary >= 0:
		return 0
	case !o.Kernel:
		return 1
	}
	return 2
}

func (m *merger) addStack(s *aggregate.Stack, ids []int32) {
	locs := make([]aggregate.Loc, len(s.Locs))
	for i, l := range s.Locs {
		locs[i] = aggregate.Loc{Obj: ids[l.Obj], Addr: l.Addr}
	}
	m.key = aggregate.AppendKey(m.key[:0], locs)
	dst := m.stacks[string(m.key)]
	if dst == nil {
		dst = &aggregate.Stack{Locs: locs}
		m.stacks[string(m.key)] = dst
	}
	dst.Count += s.Count
	dst.Period += s.Period
}

// addTimes keeps the least first and the greatest last timestamp; 0 is no
// time.
func (m *merger) addTimes(first, last uint64) {
	c := &m.counts
	if first != 0 && (c.FirstNS == 0 || first < c.FirstNS) {
		c.FirstNS = first
	}
	c.LastNS = max(c.LastNS, last)
}

func addStats(s, o *aggregate.StackStats) {
	of := statFields(o)
	for i, f := range statFields(s) {
		*f.n += *of[i].n
	}
	for i, n := range o.PerBinary {
		s.PerBinary[i] += n
	}
}

// profile returns the sum, canonical.
func (m *merger) profile() *Profile {
	for _, s := range m.stacks {
		m.counts.Stacks = append(m.counts.Stacks, s)
	}
	return Canonical(&Profile{Binaries: m.bins, Counts: &m.counts})
}
