package aggregate

// BinaryAddrs lists the addresses of the frames of the stacks in each of
// the first n profiled binaries, in stack order, repeats included: what a
// symbolizer that loads a batch of addresses up front is given.
func (c *StackCounts) BinaryAddrs(n int) [][]uint64 {
	sizes := make([]int, n)
	c.eachBinaryLoc(n, func(bi int, _ uint64) { sizes[bi]++ })
	addrs := make([][]uint64, n)
	for i, size := range sizes {
		addrs[i] = make([]uint64, 0, size)
	}
	c.eachBinaryLoc(n, func(bi int, addr uint64) { addrs[bi] = append(addrs[bi], addr) })
	return addrs
}

// eachBinaryLoc calls f with each frame's binary and address, for the
// frames in the first n binaries.
func (c *StackCounts) eachBinaryLoc(n int, f func(bi int, addr uint64)) {
	for _, s := range c.Stacks {
		for _, l := range s.Locs {
			if bi := c.Objects[l.Obj].Binary; bi >= 0 && bi < n {
				f(bi, l.Addr)
			}
		}
	}
}
