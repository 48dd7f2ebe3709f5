package propeller

import (
	"cmp"
	"slices"
)

// Call-chain clustering (C3), as lld's CallGraphSort orders sections:
// functions, densest first, each join the cluster of their heaviest
// caller, after it, unless that call is under a tenth of the calls into
// the function, the cluster would pass 2 MiB, or its density would fall
// under an eighth of the caller cluster's. The clusters are then ordered
// by density.
const (
	maxClusterSize      = 2 << 20
	maxDensityLoss      = 8
	minCallShareDivisor = 10
)

// c3Func is what C3 knows of a function.
type c3Func struct {
	size   uint64 // of its hot part
	weight uint64 // block executions
	calls  uint64 // calls into it
	// caller is its heaviest caller (-1: none), callerCount that call's count.
	caller      int
	callerCount uint64
}

// c3Cluster is a run of functions.
type c3Cluster struct {
	funcs        []int
	size, weight uint64
}

func (c *c3Cluster) density() float64 { return float64(c.weight) / float64(max(c.size, 1)) }

// c3Order orders the functions fs, given the calls between them by
// (caller, callee) index.
func c3Order(fs []c3Func, calls map[[2]int]uint64) []int {
	heaviestCallers(fs, calls)
	clusters := make([]*c3Cluster, len(fs))
	leader := make([]int, len(fs))
	for i, f := range fs {
		clusters[i] = &c3Cluster{funcs: []int{i}, size: f.size, weight: f.weight}
		leader[i] = i
	}
	for _, i := range byDensity(clusters) {
		if p := joinCaller(fs[i], clusters, leader, i); p >= 0 {
			c, pc := clusters[i], clusters[p]
			pc.funcs, pc.size, pc.weight = append(pc.funcs, c.funcs...), pc.size+c.size, pc.weight+c.weight
			clusters[i] = nil
			leader[i] = p
		}
	}
	var order []int
	for _, i := range byDensity(clusters) {
		order = append(order, clusters[i].funcs...)
	}
	return order
}

// heaviestCallers sets each function's calls and heaviest caller.
func heaviestCallers(fs []c3Func, calls map[[2]int]uint64) {
	for i := range fs {
		fs[i].caller = -1
	}
	for e, n := range calls {
		f := &fs[e[1]]
		f.calls += n
		if e[0] != e[1] && (n > f.callerCount || n == f.callerCount && e[0] < f.caller) {
			f.caller, f.callerCount = e[0], n
		}
	}
}

// joinCaller is the cluster that cluster i (of function f alone) joins,
// or -1.
func joinCaller(f c3Func, clusters []*c3Cluster, leader []int, i int) int {
	if f.caller < 0 || f.callerCount*minCallShareDivisor <= f.calls {
		return -1
	}
	p := find(leader, f.caller)
	if p == i {
		return -1
	}
	c, pc := clusters[i], clusters[p]
	if c.size+pc.size > maxClusterSize {
		return -1
	}
	merged := float64(c.weight+pc.weight) / float64(max(c.size+pc.size, 1))
	if merged < pc.density()/maxDensityLoss {
		return -1
	}
	return p
}

// find is the cluster function i is in.
func find(leader []int, i int) int {
	for leader[i] != i {
		leader[i] = leader[leader[i]]
		i = leader[i]
	}
	return i
}

// byDensity are the indexes of the clusters, densest first.
func byDensity(clusters []*c3Cluster) []int {
	var idx []int
	for i, c := range clusters {
		if c != nil {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(clusters[b].density(), clusters[a].density()) })
	return idx
}
