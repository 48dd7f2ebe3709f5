// Package addrprof is the address profile: what a recording's call stacks
// count before anything that needs the binaries' code or debug information
// (stack repair, symbolization, wrapper folding), as a file that many
// recordings' files merge into. It is the call-stack kind of the pivot of
// issue 25; the LBR and CS kinds are llvm-profgen's unsymbolized profile
// (package rawprof), which Merge merges too.
//
// In: aggregate.StackCounts and the profiled binaries' build ids and paths
// (Write), or address profile files (Read, Merge). Out: the text format of
// docs/address-profile.md, version 1, in one canonical order, so that a
// merge in any grouping and order gives the same bytes.
package addrprof

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/profformat"
)

// Header is the first line of an address profile of call stacks:
// llvm-profgen never writes a line starting with '#'.
const Header = profformat.AddressHeader + "1"

// Binary is a profiled binary: its build id (lower-case hex, "" when it
// has none) and its path where the profile was made.
type Binary struct {
	BuildID string
	Path    string
}

// Identity is what tells binaries apart: the build id, else the base name
// (as perf's DSO names are matched to binaries).
func (b Binary) Identity() string {
	if b.BuildID != "" {
		return b.BuildID
	}
	return "name:" + filepath.Base(b.Path)
}

// Profile is an address profile of call stacks. Counts.Objects[i].Binary
// and Counts.Stats.PerBinary index Binaries.
type Profile struct {
	Binaries []Binary
	Counts   *aggregate.StackCounts
}

// Canonical returns p in the canonical order: binaries by identity,
// objects by when they were first met (aggregate.Seen: by time, or by
// sample number in a recording without times) then path, stacks by their
// frames' key. Objects first met in the same order in two recordings
// are numbered alike, so a recording in time order and the merge of its
// parts number them as one pass over it does.
func Canonical(p *Profile) *Profile {
	binOrder := canonicalBinaries(p.Binaries)
	objOrder := canonicalObjects(p.Counts.Objects)
	return renumber(p, binOrder, objOrder)
}

// canonicalBinaries returns the indexes of bins in canonical order.
func canonicalBinaries(bins []Binary) []int {
	order := identityOrder(len(bins))
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(bins[a].Identity(), bins[b].Identity()), cmp.Compare(bins[a].Path, bins[b].Path))
	})
	return order
}

// canonicalObjects returns the indexes of objs in canonical order.
func canonicalObjects(objs []aggregate.Object) []int {
	order := identityOrder(len(objs))
	slices.SortStableFunc(order, func(a, b int) int {
		oa, ob := &objs[a], &objs[b]
		return cmp.Or(timeOrSample(oa.First).Compare(timeOrSample(ob.First)), cmp.Compare(oa.Path, ob.Path))
	})
	return order
}

// timeOrSample is s with its sample number only where it has no time:
// the number counts the samples of one recording, or of one part of it,
// while times order the samples of all parts alike.
func timeOrSample(s aggregate.Seen) aggregate.Seen {
	if s.NS != 0 {
		s.Sample = 0
	}
	return s
}

func identityOrder(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	return order
}

// renumber returns p with its binaries and objects in the orders given
// (new index → old index) and its stacks in canonical order.
func renumber(p *Profile, binOrder, objOrder []int) *Profile {
	c := p.Counts
	out := &aggregate.StackCounts{Symbols: make(map[aggregate.Loc]string, len(c.Symbols)), Events: c.Events,
		FirstNS: c.FirstNS, LastNS: c.LastNS, Stats: c.Stats}
	binIDs, objIDs := inverse(binOrder), inverse(objOrder)
	bins := make([]Binary, len(binOrder))
	out.Stats.PerBinary = make([]uint64, len(binOrder))
	for i, old := range binOrder {
		bins[i] = p.Binaries[old]
		out.Stats.PerBinary[i] = c.Stats.PerBinary[old]
	}
	for _, old := range objOrder {
		o := c.Objects[old]
		o.First = timeOrSample(o.First)
		if o.Binary >= 0 {
			o.Binary = binIDs[o.Binary]
		}
		out.Objects = append(out.Objects, o)
	}
	for l, name := range c.Symbols {
		out.Symbols[aggregate.Loc{Obj: int32(objIDs[l.Obj]), Addr: l.Addr}] = name
	}
	out.Stacks = renumberStacks(c.Stacks, objIDs)
	return &Profile{Binaries: bins, Counts: out}
}

func renumberStacks(stacks []*aggregate.Stack, objIDs []int) []*aggregate.Stack {
	out := make([]*aggregate.Stack, len(stacks))
	for i, s := range stacks {
		locs := make([]aggregate.Loc, len(s.Locs))
		for j, l := range s.Locs {
			locs[j] = aggregate.Loc{Obj: int32(objIDs[l.Obj]), Addr: l.Addr}
		}
		out[i] = &aggregate.Stack{Locs: locs, Count: s.Count, Period: s.Period}
	}
	return aggregate.SortStacks(out)
}

// inverse returns the permutation that undoes order.
func inverse(order []int) []int {
	inv := make([]int, len(order))
	for i, old := range order {
		inv[old] = i
	}
	return inv
}
