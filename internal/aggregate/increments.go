package aggregate

import "github.com/profgen/profgen/internal/record"

// incrementSlots is the size of an increments cache. The distinct samples
// of a trace add to a few thousand distinct ranges and branches some two
// million times; a map increment costs several times a look in the cache.
const incrementSlots = 1 << 13

// increments is a direct-mapped cache of increments in front of a counter
// map: an increment of the key a slot holds adds to the slot, any other
// evicts the slot's sum into the map. flush empties it into the map; the
// map is complete only after it.
type increments[K Range | record.Branch] struct {
	slots *[incrementSlots]increment[K]
}

type increment[K Range | record.Branch] struct {
	key  K
	n    uint64
	used bool
}

// add adds n to m[k], eventually; a and b are k's two addresses.
func (c *increments[K]) add(m map[K]uint64, k K, a, b, n uint64) {
	if c.slots == nil {
		c.slots = new([incrementSlots]increment[K])
	}
	s := &c.slots[((a*0x9e3779b97f4a7c15+b)*0xbf58476d1ce4e5b9)>>51%incrementSlots]
	if s.used && s.key == k {
		s.n += n
		return
	}
	if s.used {
		m[s.key] += s.n
	}
	*s = increment[K]{key: k, n: n, used: true}
}

// flush adds what the cache holds to m and empties it.
func (c *increments[K]) flush(m map[K]uint64) {
	if c.slots == nil {
		return
	}
	for i := range c.slots {
		if s := &c.slots[i]; s.used {
			m[s.key] += s.n
			*s = increment[K]{}
		}
	}
}
