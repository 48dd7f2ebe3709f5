package addrspace

import (
	"maps"
	"slices"
)

// Clone returns a copy of the table that evolves on its own (for a worker
// that parses a chunk of the input from the state at the chunk's start).
// The mapping slices are shared: the table never changes one in place.
func (t *Table) Clone() *Table {
	c := *t
	c.procs = maps.Clone(t.procs)
	c.places = slices.Clone(t.places)
	for i := range c.places {
		c.places[i].bases = maps.Clone(t.places[i].bases)
	}
	return &c
}
