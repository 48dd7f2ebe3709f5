package addrspace

import "maps"

// Clone returns a copy of the table that evolves on its own (for a worker
// that parses a chunk of the input from the state at the chunk's start).
// The mapping slices are shared: the table never changes one in place.
func (t *Table) Clone() *Table {
	c := *t
	c.procs = maps.Clone(t.procs)
	c.bases = maps.Clone(t.bases)
	return &c
}
