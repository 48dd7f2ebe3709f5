package symbolize

import (
	"cmp"
	"runtime"
	"slices"
	"sync/atomic"
)

// Prefetch loads, when t loads lazily, the units holding addrs (in any
// order, repeats allowed): it reads them on GOMAXPROCS goroutines, the
// largest first, and joins them to the tables one by one in an order
// that does not depend on which reading ends first (see joinOrder).
// Lookups may run meanwhile
// (a unit joins under the lazy tables' lock; a unit a lookup loaded
// first is not joined again); methods that add to t (MarkEntries,
// AddSymbols) may not.
func (t *Table) Prefetch(addrs []uint64) {
	if t.lazy == nil {
		return
	}
	t.lazy.prefetch(addrs, runtime.GOMAXPROCS(0))
}

// prefetch is Prefetch with the units read on the given number of
// goroutines.
func (z *lazyTables) prefetch(addrs []uint64, workers int) {
	units := z.unitsToLoad(addrs)
	if len(units) == 0 {
		return
	}
	parsed := z.parseAll(units, workers)
	z.presize(units)
	for _, k := range joinOrder(len(units)) {
		i, p := units[k], <-parsed[k]
		z.mu.Lock()
		if !z.units[i].loaded {
			z.loadGroup(i, p)
		}
		z.mu.Unlock()
	}
}

// joinOrder is the order in which n units read largest first are
// joined: the largest last. The largest unit (of a Go binary, often half
// of the code loaded) is read on one goroutine while the others read the
// rest, and these join as they come rather than after it.
func joinOrder(n int) []int {
	order := make([]int, 0, n)
	for k := 1; k < n; k++ {
		order = append(order, k)
	}
	return append(order, 0)
}

// unitsToLoad lists the units, not loaded yet, that hold addrs: the
// largest first, then by position.
func (z *lazyTables) unitsToLoad(addrs []uint64) []int {
	z.mu.Lock()
	defer z.mu.Unlock()
	want := make([]bool, len(z.units))
	var units []int
	last := unitRange{unit: -1}
	for _, a := range addrs {
		if a >= last.start && a < last.end {
			continue
		}
		j := z.rangeAt(a)
		if j < 0 {
			continue
		}
		last = z.byAddr[j]
		if i := last.unit; !want[i] && !z.units[i].loaded {
			want[i] = true
			units = append(units, i)
		}
	}
	slices.SortFunc(units, func(a, b int) int {
		if c := cmp.Compare(z.units[b].size, z.units[a].size); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return units
}

// parseAll reads units on workers goroutines, in their order; the parse
// of units[k] arrives on the k-th channel. The split units of skeletons
// are not read there (see parse): theirs arrive nil.
func (z *lazyTables) parseAll(units []int, workers int) []chan *unitParse {
	out := make([]chan *unitParse, len(units))
	for k := range out {
		out[k] = make(chan *unitParse, 1)
	}
	var next atomic.Int64 // the position of the next unit to read
	for range min(workers, len(units)) {
		go func() {
			for k := int(next.Add(1) - 1); k < len(units); k = int(next.Add(1) - 1) {
				out[k] <- z.parseAlone(units[k])
			}
		}()
	}
	return out
}

// parseAlone is parse for a unit read on a goroutine of its own: nil for
// one whose split unit is to be read.
func (z *lazyTables) parseAlone(i int) *unitParse {
	if z.units[i].split != nil {
		return nil
	}
	return z.parse(i)
}

// presize makes room in the tables' subroutines for those of units.
func (z *lazyTables) presize(units []int) {
	var size uint64
	for _, i := range units {
		size += z.units[i].size
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	z.l.presizeSubroutines(size)
}
