package propeller

import (
	"cmp"
	"container/heap"
	"slices"
)

// ext-TSP, as LLVM's CodeLayout.cpp scores a layout: a jump of count n
// from a block ending at s to a block starting at d scores
//
//	n × 1.0 (conditional) or n × 1.05 (unconditional) when d = s,
//	n × 0.1 × (1 − (d−s)/1024) when 0 < d−s ≤ 1024 (forward),
//	n × 0.1 × (1 − (s−d)/640) when 0 < s−d ≤ 640 (backward),
//
// and 0 otherwise. A jump is conditional when its block has another
// successor. Chains of blocks start one per block and are merged, the
// pair that gains the most first, by concatenation or by splitting one
// around the other (tryKinds); the entry block stays first. The chains are then concatenated, the entry's first, the others
// by density (count per byte).
const (
	fallthroughCond   = 1.0
	fallthroughUncond = 1.05
	forwardWeight     = 0.1
	backwardWeight    = 0.1
	forwardDistance   = 1024
	backwardDistance  = 640
	splitThreshold    = 128
	minGain           = 1e-9 // a merge must gain more
)

// jump is an edge of the layout graph between node indexes.
type jump struct {
	src, dst int
	count    uint64
	cond     bool
}

// jumpScore scores a jump from a block ending at srcEnd to dst.
func jumpScore(j jump, srcEnd, dst uint64) float64 {
	n := float64(j.count)
	switch {
	case srcEnd == dst && j.cond:
		return n * fallthroughCond
	case srcEnd == dst:
		return n * fallthroughUncond
	case srcEnd < dst && dst-srcEnd <= forwardDistance:
		return n * forwardWeight * (1 - float64(dst-srcEnd)/forwardDistance)
	case srcEnd > dst && srcEnd-dst <= backwardDistance:
		return n * backwardWeight * (1 - float64(srcEnd-dst)/backwardDistance)
	}
	return 0
}

// layoutGraph is the input of extTSP: node 0 is the entry.
type layoutGraph struct {
	sizes, counts []uint64
	jumps         []jump
}

// conditional marks each jump whose source has another successor.
func conditional(jumps []jump) {
	out := map[int]int{}
	for _, j := range jumps {
		out[j.src]++
	}
	for i := range jumps {
		jumps[i].cond = out[jumps[i].src] > 1
	}
}

// chain is an ordered run of nodes.
type chain struct {
	id          int  // in the order chains are made
	merged      bool // into a later chain
	nodes       []int
	size, count uint64
	score       float64
	internal    []int            // jumps between its nodes
	adjacent    map[*chain][]int // jumps to and from another chain
}

func (c *chain) density() float64 { return float64(c.count) / float64(max(c.size, 1)) }

// hasEntry reports whether node 0 starts the chain.
func (c *chain) hasEntry() bool { return c.nodes[0] == 0 }

// mergeKind is how two chains X and Y are joined; X1 and X2 are X's
// nodes before and from the split point.
type mergeKind uint8

const (
	mergeXY    mergeKind = iota // X Y
	mergeX1YX2                  // X1 Y X2
	mergeYX2X1                  // Y X2 X1
	mergeX2X1Y                  // X2 X1 Y
)

// candidate is a way of merging x and y, and what it gains.
type candidate struct {
	x, y  *chain
	kind  mergeKind
	split int
	gain  float64
}

// segment is the part [lo, hi) of a chain's nodes, placed at start in
// the merged chain; base is the offset of its first node in its chain.
type segment struct {
	c           *chain
	lo, hi      int
	start, base uint64
}

// segments appends to buf the parts of x and y in the order cand puts
// them.
func (cand candidate) segments(buf []segment) []segment {
	x, y, s := cand.x, cand.y, cand.split
	n := len(x.nodes)
	switch cand.kind {
	case mergeX1YX2:
		return append(buf, segment{c: x, lo: 0, hi: s}, segment{c: y, lo: 0, hi: len(y.nodes)}, segment{c: x, lo: s, hi: n})
	case mergeYX2X1:
		return append(buf, segment{c: y, lo: 0, hi: len(y.nodes)}, segment{c: x, lo: s, hi: n}, segment{c: x, lo: 0, hi: s})
	case mergeX2X1Y:
		return append(buf, segment{c: x, lo: s, hi: n}, segment{c: x, lo: 0, hi: s}, segment{c: y, lo: 0, hi: len(y.nodes)})
	}
	return append(buf, segment{c: x, lo: 0, hi: n}, segment{c: y, lo: 0, hi: len(y.nodes)})
}

// layout is the state of extTSP.
type layout struct {
	g       *layoutGraph
	chainOf []*chain
	pos     []int           // a node's index in its chain
	offset  []uint64        // a node's byte offset in its chain
	jscore  []float64       // a jump's score in its chain (0 between chains)
	linked  map[[2]int]bool // (src, dst) of every jump
	segBuf  [3]segment
	chains  []*chain // alive, in creation order
	nextID  int
	queue   mergeQueue
}

// extTSP orders the nodes of g, node 0 first.
func extTSP(g *layoutGraph) []int {
	conditional(g.jumps)
	l := newLayout(g)
	for l.mergeBest() {
	}
	return l.order()
}

func newLayout(g *layoutGraph) *layout {
	n := len(g.sizes)
	l := &layout{g: g, chainOf: make([]*chain, n), pos: make([]int, n), offset: make([]uint64, n),
		jscore: make([]float64, len(g.jumps)), linked: map[[2]int]bool{}}
	for i := range n {
		c := &chain{id: l.nextID, nodes: []int{i}, size: g.sizes[i], count: g.counts[i], adjacent: map[*chain][]int{}}
		l.nextID++
		l.chainOf[i] = c
		l.chains = append(l.chains, c)
	}
	for ji, j := range g.jumps {
		l.linked[[2]int{j.src, j.dst}] = true
		x, y := l.chainOf[j.src], l.chainOf[j.dst]
		if x == y {
			x.internal = append(x.internal, ji)
			continue
		}
		x.adjacent[y] = append(x.adjacent[y], ji)
		y.adjacent[x] = append(y.adjacent[x], ji)
	}
	for _, c := range l.chains {
		l.scoreChain(c)
	}
	for _, c := range l.chains {
		l.queueMerges(c)
	}
	return l
}

// scoreChain sets the scores of c's jumps and their sum.
func (l *layout) scoreChain(c *chain) {
	segs := l.place([]segment{{c: c, lo: 0, hi: len(c.nodes)}})
	c.score = 0
	for _, ji := range c.internal {
		l.jscore[ji] = l.jumpScore(ji, segs)
		c.score += l.jscore[ji]
	}
}

// addr is node n's address in the order of segs.
func (l *layout) addr(n int, segs []segment) uint64 {
	c, p := l.chainOf[n], l.pos[n]
	for _, s := range segs {
		if s.c == c && p >= s.lo && p < s.hi {
			return s.start + l.offset[n] - s.base
		}
	}
	panic("propeller: node outside the merged chains")
}

// place sets the start and base of each segment, in order.
func (l *layout) place(segs []segment) []segment {
	var start uint64
	for i := range segs {
		s := &segs[i]
		s.start, s.base = start, l.offset[s.c.nodes[s.lo]]
		end := s.c.size
		if s.hi < len(s.c.nodes) {
			end = l.offset[s.c.nodes[s.hi]]
		}
		start += end - s.base
	}
	return segs
}

// jumpScore scores jump ji laid out as segs says.
func (l *layout) jumpScore(ji int, segs []segment) float64 {
	j := l.g.jumps[ji]
	return jumpScore(j, l.addr(j.src, segs)+l.g.sizes[j.src], l.addr(j.dst, segs))
}

// mergeBest merges the two chains whose merge gains the most, and reports
// whether one gained anything. The queue holds the best merge of every
// two neighbouring chains, computed when the later of them was made;
// merges of a chain since merged into another are stale.
func (l *layout) mergeBest() bool {
	for l.queue.Len() > 0 {
		c := heap.Pop(&l.queue).(candidate)
		if !c.x.merged && !c.y.merged {
			l.apply(c)
			return true
		}
	}
	return false
}

// queueMerges queues the merges that gain of c with each neighbour made
// before it (each pair once: c is the newest chain, or the chains are
// queued in the order they were made).
func (l *layout) queueMerges(c *chain) {
	for x := range c.adjacent {
		if x.id > c.id {
			continue
		}
		if m := l.bestOf(x, c); m.gain > minGain {
			heap.Push(&l.queue, m)
		}
	}
}

// mergeQueue orders merges, the best first (betterMerge).
type mergeQueue []candidate

func (q mergeQueue) Len() int           { return len(q) }
func (q mergeQueue) Less(i, j int) bool { return betterMerge(q[i], q[j]) }
func (q mergeQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *mergeQueue) Push(x any)        { *q = append(*q, x.(candidate)) }
func (q *mergeQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// betterMerge orders candidates by gain, then by their chains' ids, so
// that the layout does not depend on map order.
func betterMerge(c, other candidate) bool {
	if c.gain != other.gain {
		return c.gain > other.gain
	}
	a, b := c.key(), other.key()
	return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) < 0
}

// key is the ids of the candidate's chains, lower first.
func (c candidate) key() [2]int {
	return [2]int{min(c.x.id, c.y.id), max(c.x.id, c.y.id)}
}

// bestOf is the best merge of x and y (x made first).
func (l *layout) bestOf(x, y *chain) candidate {
	best := candidate{x: x, y: y, gain: -1}
	l.tryKinds(x, y, &best)
	l.tryKinds(y, x, &best)
	return best
}

// tryKinds keeps in best the merges of x then y that gain more, as
// LLVM's ext-TSP tries them: joined; x split after a jump into y's first
// node, or before the target of a jump from y's last; and, x short
// enough, x split anywhere but along a jump between neighbours.
func (l *layout) tryKinds(x, y *chain, best *candidate) {
	l.try(candidate{x: x, y: y, kind: mergeXY}, best)
	for _, ji := range x.adjacent[y] {
		j := l.g.jumps[ji]
		if j.dst == y.nodes[0] && l.chainOf[j.src] == x {
			l.trySplit(x, y, l.pos[j.src]+1, best, mergeX1YX2, mergeX2X1Y)
		}
		if j.src == y.nodes[len(y.nodes)-1] && l.chainOf[j.dst] == x {
			l.trySplit(x, y, l.pos[j.dst], best, mergeX1YX2, mergeYX2X1)
		}
	}
	if len(x.nodes) > splitThreshold {
		return
	}
	for s := 1; s < len(x.nodes); s++ {
		if !l.linked[[2]int{x.nodes[s-1], x.nodes[s]}] {
			l.trySplit(x, y, s, best, mergeX1YX2, mergeYX2X1, mergeX2X1Y)
		}
	}
}

// trySplit tries the merges of kinds with x split at s.
func (l *layout) trySplit(x, y *chain, s int, best *candidate, kinds ...mergeKind) {
	if s <= 0 || s >= len(x.nodes) {
		return
	}
	for _, k := range kinds {
		l.try(candidate{x: x, y: y, kind: k, split: s}, best)
	}
}

// try scores cand and keeps it in best if it gains more.
func (l *layout) try(cand candidate, best *candidate) {
	segs := cand.segments(l.segBuf[:0])
	first := segs[0].c.nodes[segs[0].lo]
	if first != 0 && (cand.x.hasEntry() || cand.y.hasEntry()) {
		return
	}
	l.place(segs)
	cand.gain = 0
	for _, ji := range cand.x.adjacent[cand.y] {
		cand.gain += l.jumpScore(ji, segs)
	}
	if cand.kind != mergeXY {
		cand.gain += l.splitGain(cand.x, cand.split, segs)
	}
	if cand.gain > best.gain {
		*best = cand
	}
}

// splitGain is what splitting x at split changes in the scores of its
// jumps: only those from one side of the split to the other move.
func (l *layout) splitGain(x *chain, split int, segs []segment) float64 {
	var gain float64
	for _, ji := range x.internal {
		j := l.g.jumps[ji]
		if (l.pos[j.src] < split) != (l.pos[j.dst] < split) {
			gain += l.jumpScore(ji, segs) - l.jscore[ji]
		}
	}
	return gain
}

// apply merges the chains of cand into a new chain.
func (l *layout) apply(cand candidate) {
	x, y := cand.x, cand.y
	z := &chain{id: l.nextID, size: x.size + y.size, count: x.count + y.count, adjacent: map[*chain][]int{}}
	l.nextID++
	for _, s := range cand.segments(nil) {
		z.nodes = append(z.nodes, s.c.nodes[s.lo:s.hi]...)
	}
	l.placeNodes(z)
	z.internal = slices.Concat(x.internal, y.internal, x.adjacent[y])
	l.scoreChain(z)
	l.relink(z, x, y)
	l.relink(z, y, x)
	x.merged, y.merged = true, true
	l.queueMerges(z)
	l.chains = slices.DeleteFunc(l.chains, func(c *chain) bool { return c == x || c == y })
	l.chains = append(l.chains, z)
}

// placeNodes sets the chain, index and offset of z's nodes.
func (l *layout) placeNodes(z *chain) {
	var off uint64
	for i, n := range z.nodes {
		l.chainOf[n], l.pos[n], l.offset[n] = z, i, off
		off += l.g.sizes[n]
	}
}

// relink moves the jumps between old and the chains beside it, but other,
// to z.
func (l *layout) relink(z, old, other *chain) {
	for c, jumps := range old.adjacent {
		delete(c.adjacent, old)
		if c == other {
			continue
		}
		z.adjacent[c] = append(z.adjacent[c], jumps...)
		c.adjacent[z] = z.adjacent[c]
	}
}

// order concatenates the chains: the entry's first, then by density.
func (l *layout) order() []int {
	chains := slices.Clone(l.chains)
	slices.SortStableFunc(chains, func(a, b *chain) int {
		if a.hasEntry() != b.hasEntry() {
			return boolRank(a.hasEntry())
		}
		return cmp.Or(cmp.Compare(b.density(), a.density()), cmp.Compare(a.nodes[0], b.nodes[0]))
	})
	var nodes []int
	for _, c := range chains {
		nodes = append(nodes, c.nodes...)
	}
	return nodes
}

// boolRank sorts true first.
func boolRank(first bool) int {
	if first {
		return -1
	}
	return 1
}
