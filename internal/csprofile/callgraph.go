package csprofile

import (
	"slices"
	"sort"
)

// cgNode is a function of the profiled call graph (LLVM's
// ProfiledCallGraph): its callees in name order, each edge weighted by the
// hottest count seen for the call.
type cgNode struct {
	name  string
	edges []*cgEdge // sorted by callee name
}

type cgEdge struct {
	from, to *cgNode
	weight   uint64
}

type callGraph struct {
	root  cgNode // links every function, so that all are reachable
	funcs map[string]*cgNode
}

// newCallGraph builds the call graph of the context trie: an edge from each
// node's function to each child's, weighted by the call count (the larger
// of the call target count and the callee's entry estimate), summed over
// contexts. Edges of weight up to cold are dropped (but root edges).
func newCallGraph(t *trie, cold uint64) *callGraph {
	g := &callGraph{funcs: map[string]*cgNode{}}
	queue := []*node{}
	for _, c := range t.root.children {
		g.function(c.fn)
		queue = append(queue, c)
	}
	for len(queue) > 0 {
		caller := queue[0]
		queue = queue[1:]
		for _, callee := range caller.children {
			g.function(callee.fn)
			queue = append(queue, callee)
			g.call(caller.fn, callee.fn, callWeight(caller, callee))
		}
	}
	if cold > 0 {
		for _, n := range g.funcs {
			n.edges = slices.DeleteFunc(n.edges, func(e *cgEdge) bool { return e.weight <= cold })
		}
	}
	return g
}

// callWeight is the count of calls from caller's context to callee's.
func callWeight(caller, callee *node) uint64 {
	if caller.prof == nil || callee.prof == nil {
		return 0
	}
	return max(callTargetCount(caller.prof, callee), callee.prof.fs.HeadSamplesEstimate(true))
}

// callTargetCount is the count of calls to callee's function at its call
// site in caller's profile.
func callTargetCount(caller *profile, callee *node) uint64 {
	if r := caller.fs.Body[callee.callsite]; r != nil {
		return r.CallTargets[callee.fn]
	}
	return 0
}

func (g *callGraph) function(name string) {
	if _, ok := g.funcs[name]; ok {
		return
	}
	n := &cgNode{name: name}
	g.funcs[name] = n
	g.root.addEdge(&cgEdge{from: &g.root, to: n})
}

func (g *callGraph) call(caller, callee string, weight uint64) {
	from, to := g.funcs[caller], g.funcs[callee]
	if to == nil {
		return
	}
	i, found := edgeIndex(from.edges, callee)
	if found {
		from.edges[i].weight += weight
		return
	}
	from.addEdge(&cgEdge{from: from, to: to, weight: weight})
}

func (n *cgNode) addEdge(e *cgEdge) {
	i, _ := edgeIndex(n.edges, e.to.name)
	n.edges = slices.Insert(n.edges, i, e)
}

func edgeIndex(edges []*cgEdge, name string) (int, bool) {
	return slices.BinarySearchFunc(edges, name, func(e *cgEdge, n string) int {
		switch {
		case e.to.name < n:
			return -1
		case e.to.name > n:
			return 1
		}
		return 0
	})
}

// topDownOrder returns the functions callers first: the strongly connected
// components in reverse of the order Tarjan's algorithm (LLVM's
// scc_iterator) finds them, the members of each sorted by edge weights
// when sortSCC (scc_member_iterator), then the whole list reversed.
func (g *callGraph) topDownOrder(sortSCC bool) []string {
	var order []string
	for _, scc := range g.sccs() {
		if sortSCC {
			scc = sortMembers(scc)
		}
		for _, n := range scc {
			if n != &g.root {
				order = append(order, n.name)
			}
		}
	}
	slices.Reverse(order)
	return order
}

// sccs runs LLVM's iterative Tarjan (scc_iterator) from the root: the
// components come callees first, each listed in the order its nodes leave
// the stack.
func (g *callGraph) sccs() [][]*cgNode {
	type frame struct {
		n        *cgNode
		next     int
		minVisit uint32
	}
	visit := map[*cgNode]uint32{}
	var count uint32
	var stack []*cgNode
	var dfs []frame
	push := func(n *cgNode) {
		count++
		visit[n] = count
		stack = append(stack, n)
		dfs = append(dfs, frame{n: n, minVisit: count})
	}
	var out [][]*cgNode
	push(&g.root)
	for len(dfs) > 0 {
		top := &dfs[len(dfs)-1]
		if top.next < len(top.n.edges) {
			child := top.n.edges[top.next].to
			top.next++
			if v, ok := visit[child]; !ok {
				push(child)
			} else if v < top.minVisit {
				top.minVisit = v
			}
			continue
		}
		n, minVisit := top.n, top.minVisit
		dfs = dfs[:len(dfs)-1]
		if len(dfs) > 0 && dfs[len(dfs)-1].minVisit > minVisit {
			dfs[len(dfs)-1].minVisit = minVisit
		}
		if minVisit != visit[n] {
			continue
		}
		var scc []*cgNode
		for {
			m := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			visit[m] = ^uint32(0)
			scc = append(scc, m)
			if m == n {
				break
			}
		}
		out = append(out, scc)
	}
	return out
}

// sortMembers orders the members of a component so that hot edges are
// followed first (scc_member_iterator): a maximum spanning forest of the
// component's edges (Kruskal, heaviest first), walked breadth-first from
// its roots (Kahn), the result reversed.
func sortMembers(scc []*cgNode) []*cgNode {
	if len(scc) <= 1 {
		return scc
	}
	in := map[*cgNode]bool{}
	for _, n := range scc {
		in[n] = true
	}
	var sorted []*cgEdge
	for _, n := range scc {
		for _, e := range n.edges {
			if in[e.to] {
				sorted = append(sorted, e)
			}
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].weight > sorted[j].weight })
	uf := newUnionFind()
	mst := map[*cgEdge]bool{}
	for _, e := range sorted {
		if uf.union(e.from, e.to) {
			mst[e] = true
		}
	}
	incoming := map[*cgNode]map[*cgEdge]bool{}
	for e := range mst {
		if incoming[e.to] == nil {
			incoming[e.to] = map[*cgEdge]bool{}
		}
		incoming[e.to][e] = true
	}
	visited := map[*cgNode]bool{}
	var queue []*cgNode
	for _, e := range sorted {
		if !visited[e.from] && len(incoming[e.from]) == 0 {
			queue = append(queue, e.from)
			visited[e.from] = true
		}
	}
	var out []*cgNode
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		out = append(out, n)
		for _, e := range n.edges {
			delete(incoming[e.to], e)
			if mst[e] && len(incoming[e.to]) == 0 {
				queue = append(queue, e.to)
			}
		}
	}
	slices.Reverse(out)
	return out
}

// unionFind is the disjoint sets of scc_member_iterator, with its union
// rule as written: the second set always joins the first (LLVM compares a
// rank with itself), and the joined root's rank grows on equal ranks.
type unionFind struct {
	parent map[*cgNode]*cgNode
	rank   map[*cgNode]uint32
}

func newUnionFind() *unionFind {
	return &unionFind{parent: map[*cgNode]*cgNode{}, rank: map[*cgNode]uint32{}}
}

func (u *unionFind) find(n *cgNode) *cgNode {
	p, ok := u.parent[n]
	if !ok || p == n {
		return n
	}
	r := u.find(p)
	u.parent[n] = r
	return r
}

func (u *unionFind) union(a, b *cgNode) bool {
	g1, g2 := u.find(a), u.find(b)
	if g1 == g2 {
		return false
	}
	u.parent[g2] = g1
	if u.rank[g1] == u.rank[g2] {
		u.rank[g2]++
	}
	return true
}
