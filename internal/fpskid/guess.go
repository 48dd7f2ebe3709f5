package fpskid

import (
	"cmp"
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
)

// observe notes that the call at site was seen calling the function at
// callee n times (in stacks that needed no repair).
func (c *code) observe(site, callee uint64, n uint64) {
	if c.seen == nil {
		c.seen = map[uint64]map[uint64]uint64{}
	}
	m := c.seen[callee]
	if m == nil {
		m = map[uint64]uint64{}
		c.seen[callee] = m
	}
	m[site] += n
}

// guess chooses the missing call site of an edge among the sites seen
// calling the callee: within the function called (within != 0), or in a
// function seen called from the caller's call site (from != 0). Each
// stack goes whole to the site furthest below its share so far, so that
// over the stacks each site gets its share of the samples.
type guess struct {
	c                      *code
	obj                    int32
	callee, within, from   uint64
	sites                  []uint64
	weights, assigned      []uint64
	weightSum, assignedSum uint64
	ready                  bool
}

// guessKey is what a guess is about: one is shared by all the edges (of
// any sampled address in the callee) that miss the same frame.
type guessKey struct {
	obj                  int32
	callee, within, from uint64
}

// guessFor returns the guess of the missing frame k is about, nil for a
// callee outside the binary (or no k).
func (c *code) guessFor(k guessKey) *guess {
	if k.callee == 0 {
		return nil
	}
	if g := c.guesses[k]; g != nil {
		return g
	}
	if c.guesses == nil {
		c.guesses = map[guessKey]*guess{}
	}
	g := &guess{c: c, obj: k.obj, callee: k.callee, within: k.within, from: k.from}
	c.guesses[k] = g
	return g
}

// candidates lists the sites seen calling the callee that fit.
func (g *guess) candidates() {
	g.ready = true
	for site, n := range g.c.seen[g.callee] {
		fn := g.c.symbolAt(site)
		switch {
		case fn == nil:
			continue
		case g.within != 0 && fn.entry != g.within:
			continue
		case g.from != 0 && g.c.seen[fn.entry][g.from] == 0:
			continue
		}
		g.sites = append(g.sites, site)
		g.weights = append(g.weights, n)
		g.weightSum += n
	}
	sortSites(g.sites, g.weights)
	g.assigned = make([]uint64, len(g.sites))
}

// pick returns the fix for a stack of n samples: the chosen site, or
// fallback when no site was seen.
func (g *guess) pick(n uint64, fallback fix) fix {
	if !g.ready {
		g.candidates()
	}
	if len(g.sites) == 0 {
		return fallback
	}
	best, bestDeficit := 0, -1.0
	for i, w := range g.weights {
		want := float64(w) / float64(g.weightSum) * float64(g.assignedSum+n)
		if d := want - float64(g.assigned[i]); d > bestDeficit {
			best, bestDeficit = i, d
		}
	}
	g.assigned[best] += n
	g.assignedSum += n
	return fix{insert: []aggregate.Loc{{Obj: g.obj, Addr: g.sites[best]}}}
}

// sortSites orders the sites by address (map order is random).
func sortSites(sites, weights []uint64) {
	idx := make([]int, len(sites))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(sites[a], sites[b]) })
	s, w := slices.Clone(sites), slices.Clone(weights)
	for i, j := range idx {
		sites[i], weights[i] = s[j], w[j]
	}
}
