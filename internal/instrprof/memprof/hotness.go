package memprof

import "math"

// RandomizeHotness makes every allocation site cold or not cold at random
// (llvm-profdata merge --memprof-random-hotness): cold sites get a
// lifetime access density of 0 and the longest lifetime, the others the
// densest access and no lifetime. The draws are glibc's rand() after
// srand(seed), one per site in record order, as llvm-profdata's on
// glibc, so a seed gives llvm's profile.
func RandomizeHotness(d *Data, seed uint32) {
	r := newGlibcRand(seed)
	for _, rec := range d.Records {
		for i := range rec.AllocSites {
			v := &rec.AllocSites[i].Info.Values
			density, lifetime := uint64(math.MaxUint64), uint64(0)
			if r.next()%2 == 1 {
				density, lifetime = 0, math.MaxUint64
			}
			v[TagTotalLifetimeAccessDensity-1], v[TagTotalLifetime-1] = density, lifetime
		}
	}
}

// glibcRand is glibc's rand(): the additive feedback generator random_r
// uses by default (TYPE_3: degree 31, separation 3), seeded as srand does.
type glibcRand struct {
	f, b int // the front and rear taps into r, as indexes mod 31
	tbl  []int32
}

func newGlibcRand(seed uint32) *glibcRand {
	if seed == 0 {
		seed = 1
	}
	g := &glibcRand{tbl: make([]int32, 31)}
	g.tbl[0] = int32(seed)
	for i := 1; i < 31; i++ {
		// 16807 * x mod (2^31 - 1), by Schrage's method as glibc.
		hi, lo := g.tbl[i-1]/127773, g.tbl[i-1]%127773
		word := 16807*lo - 2836*hi
		if word < 0 {
			word += 2147483647
		}
		g.tbl[i] = word
	}
	g.f, g.b = 3, 0
	for range 310 {
		g.next()
	}
	return g
}

// next is the next rand() value.
func (g *glibcRand) next() uint32 {
	g.tbl[g.f] += g.tbl[g.b]
	result := uint32(g.tbl[g.f]) >> 1
	g.f = (g.f + 1) % 31
	g.b = (g.b + 1) % 31
	return result
}
