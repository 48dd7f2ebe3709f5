package proforder

import (
	"math"
	"sort"
)

// The defaults of LLVM's BalancedPartitioningConfig.
const (
	splitDepth         = 18
	iterationsPerSplit = 40
	skipProbability    = float32(0.1)
	logCacheSize       = 16384
)

// node is a BPFunctionNode: a function, the utility nodes (trace
// groups) it belongs to, and its bucket.
type node struct {
	id        uint64
	utilities []uint32
	bucket    uint32
	input     int // index in the input order
}

// signature counts the nodes of one utility in each bucket, with the
// cached gains of moving one across.
type signature struct {
	left, right    uint32
	gainLR, gainRL float32
	valid          bool
}

var log2Cache = func() []float32 {
	c := make([]float32, logCacheSize)
	for i := 1; i < logCacheSize; i++ {
		c[i] = float32(math.Log2(float64(i)))
	}
	return c
}()

func log2Cached(i uint32) float32 {
	if i < logCacheSize {
		return log2Cache[i]
	}
	return float32(math.Log2(float64(i)))
}

func logCost(x, y uint32) float32 {
	return -(float32(x)*log2Cached(x+1) + float32(y)*log2Cached(y+1))
}

// balancedPartition orders nodes as LLVM's BalancedPartitioning::run.
func balancedPartition(nodes []*node) {
	for i, n := range nodes {
		n.input = i
	}
	bisect(nodes, 0, 1, 0)
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].bucket < nodes[j].bucket })
}

func byInput(nodes []*node) {
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].input < nodes[j].input })
}

func bisect(nodes []*node, depth, root, offset uint32) {
	if len(nodes) <= 1 || depth >= splitDepth {
		byInput(nodes)
		for _, n := range nodes {
			n.bucket = offset
			offset++
		}
		return
	}
	rng := newMT19937(root)
	left, right := 2*root, 2*root+1
	split(nodes, left)
	runIterations(nodes, left, right, rng)
	mid := partition(nodes, func(n *node) bool { return n.bucket == left })
	bisect(nodes[:mid], depth+1, left, offset)
	bisect(nodes[mid:], depth+1, right, offset+uint32(mid))
}

// partition is libstdc++'s std::partition: not stable, and the order it
// leaves matters to the sorts that follow.
func partition[T any](s []T, pred func(T) bool) int {
	first, last := 0, len(s)
	for {
		for first != last && pred(s[first]) {
			first++
		}
		if first == last {
			return first
		}
		last--
		for first != last && !pred(s[last]) {
			last--
		}
		if first == last {
			return first
		}
		s[first], s[last] = s[last], s[first]
		first++
	}
}

// split puts the first half of nodes, in input order, in bucket start
// and the rest in start+1, leaving them in the order LLVM 19's
// std::nth_element does.
func split(nodes []*node, start uint32) {
	half := (len(nodes) + 1) / 2
	nthElement(nodes, half)
	for i, n := range nodes {
		n.bucket = start
		if i >= half {
			n.bucket = start + 1
		}
	}
}

func runIterations(nodes []*node, left, right uint32, rng *mt19937) {
	sigs := renumberUtilities(nodes)
	for _, n := range nodes {
		for _, u := range n.utilities {
			if n.bucket == left {
				sigs[u].left++
			} else {
				sigs[u].right++
			}
		}
	}
	for i := 0; i < iterationsPerSplit; i++ {
		if runIteration(nodes, left, right, sigs, rng) == 0 {
			break
		}
	}
}

// renumberUtilities drops the utilities of one node or of every node and
// numbers the others densely, returning their signatures.
func renumberUtilities(nodes []*node) []signature {
	count := map[uint32]int{}
	for _, n := range nodes {
		for _, u := range n.utilities {
			count[u]++
		}
	}
	index := map[uint32]uint32{}
	for _, n := range nodes {
		kept := n.utilities[:0]
		for _, u := range n.utilities {
			if c := count[u]; c == 1 || c == len(nodes) {
				continue
			}
			if _, ok := index[u]; !ok {
				index[u] = uint32(len(index))
			}
			kept = append(kept, index[u])
		}
		n.utilities = kept
	}
	return make([]signature, len(index))
}

type gain struct {
	gain float32
	n    *node
}

func runIteration(nodes []*node, left, right uint32, sigs []signature, rng *mt19937) int {
	for i := range sigs {
		sigs[i].cache()
	}
	gains := make([]gain, len(nodes))
	for i, n := range nodes {
		gains[i] = gain{moveGain(n, n.bucket == left, sigs), n}
	}
	mid := partition(gains, func(g gain) bool { return g.n.bucket == left })
	ls, rs := gains[:mid], gains[mid:]
	larger := func(s []gain) func(i, j int) bool { return func(i, j int) bool { return s[i].gain > s[j].gain } }
	sort.SliceStable(ls, larger(ls))
	sort.SliceStable(rs, larger(rs))
	moved := 0
	for i := 0; i < len(ls) && i < len(rs); i++ {
		if ls[i].gain+rs[i].gain <= 0 {
			break
		}
		if move(ls[i].n, left, right, sigs, rng) {
			moved++
		}
		if move(rs[i].n, left, right, sigs, rng) {
			moved++
		}
	}
	return moved
}

// cache computes the gains of moving one node of the utility across.
func (s *signature) cache() {
	if s.valid {
		return
	}
	cost := logCost(s.left, s.right)
	s.gainLR, s.gainRL = 0, 0
	if s.left > 0 {
		s.gainLR = cost - logCost(s.left-1, s.right+1)
	}
	if s.right > 0 {
		s.gainRL = cost - logCost(s.left+1, s.right-1)
	}
	s.valid = true
}

func moveGain(n *node, leftToRight bool, sigs []signature) float32 {
	var g float32
	for _, u := range n.utilities {
		if leftToRight {
			g += sigs[u].gainLR
		} else {
			g += sigs[u].gainRL
		}
	}
	return g
}

// move moves n to the other bucket, but skips one move in ten at random
// (to leave local optima), as LLVM does.
func move(n *node, left, right uint32, sigs []signature, rng *mt19937) bool {
	if rng.unitFloat() <= skipProbability {
		return false
	}
	toRight := n.bucket == left
	n.bucket = left
	if toRight {
		n.bucket = right
	}
	for _, u := range n.utilities {
		s := &sigs[u]
		if toRight {
			s.left--
			s.right++
		} else {
			s.left++
			s.right--
		}
		s.valid = false
	}
	return true
}
