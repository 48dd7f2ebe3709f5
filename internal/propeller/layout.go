package propeller

import (
	"cmp"
	"slices"
)

// layoutFunc lays out f's executed blocks by ext-TSP, the entry first, in
// one cluster.
func layoutFunc(f *funcCFG) Func {
	nodes, node := hotNodes(f)
	g := &layoutGraph{}
	for _, b := range nodes {
		g.sizes = append(g.sizes, f.blocks[b].size)
		g.counts = append(g.counts, f.blocks[b].count)
	}
	g.jumps = hotJumps(f, node)
	var cluster []uint32
	for _, n := range extTSP(g) {
		cluster = append(cluster, f.blocks[nodes[n]].id)
	}
	return Func{Names: f.names, Clusters: [][]uint32{cluster}, Cold: len(nodes) < len(f.blocks), Blocks: blockCounts(f, nodes)}
}

// hotNodes are the blocks (indexes) of the layout: the entry, then the
// executed blocks in address order; node maps a block to its node.
func hotNodes(f *funcCFG) (nodes []int, node map[int]int) {
	nodes = []int{f.entry}
	node = map[int]int{f.entry: 0}
	for i, b := range f.blocks {
		if i != f.entry && b.count > 0 {
			node[i] = len(nodes)
			nodes = append(nodes, i)
		}
	}
	return nodes, node
}

// hotJumps are f's counted edges between nodes, in a fixed order.
func hotJumps(f *funcCFG, node map[int]int) []jump {
	var jumps []jump
	for e, n := range f.edges {
		src, ok1 := node[e[0]]
		dst, ok2 := node[e[1]]
		if ok1 && ok2 && n > 0 {
			jumps = append(jumps, jump{src: src, dst: dst, count: n})
		}
	}
	slices.SortFunc(jumps, func(a, b jump) int { return cmp.Or(cmp.Compare(a.src, b.src), cmp.Compare(a.dst, b.dst)) })
	return jumps
}

// blockCounts are the counts of the blocks nodes and of their edges, in
// address order of the successors.
func blockCounts(f *funcCFG, nodes []int) []BlockCount {
	out := make([]BlockCount, len(nodes))
	pos := map[int]int{}
	for k, b := range nodes {
		out[k] = BlockCount{ID: f.blocks[b].id, Count: f.blocks[b].count}
		pos[b] = k
	}
	for e, n := range f.edges {
		if k, ok := pos[e[0]]; ok {
			out[k].Succs = append(out[k].Succs, EdgeCount{ID: f.blocks[e[1]].id, Count: n})
		}
	}
	for k := range out {
		slices.SortFunc(out[k].Succs, func(a, b EdgeCount) int { return cmp.Compare(a.ID, b.ID) })
	}
	return out
}
