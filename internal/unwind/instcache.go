package unwind

import bin "github.com/profgen/profgen/internal/binary"

// instCacheSlots is the size of each of instCache's tables. The branch
// stacks of a profile hit a few thousand addresses over and over; each
// unwinder asks about every one of them several times per sample.
const instCacheSlots = 1 << 13

// instCache is a Code that remembers the answers of Inst and PrevInst
// in direct-mapped tables, one per unwinder (it is not safe for
// concurrent use), in front of the binary's code index, whose lookups are
// binary searches.
type instCache struct {
	Code
	inst, prev *[instCacheSlots]cachedInst
}

// cachedInst is the answer for addr: the instruction and whether there
// is one.
type cachedInst struct {
	addr uint64
	in   bin.Inst
	ok   bool
	set  bool
}

func newInstCache(code Code) *instCache {
	return &instCache{Code: code, inst: new([instCacheSlots]cachedInst), prev: new([instCacheSlots]cachedInst)}
}

func (c *instCache) Inst(addr uint64) (bin.Inst, bool) {
	return lookup(c.inst, addr, c.Code.Inst)
}

func (c *instCache) PrevInst(addr uint64) (bin.Inst, bool) {
	return lookup(c.prev, addr, c.Code.PrevInst)
}

// lookup answers from the table, or asks find and keeps its answer.
func lookup(t *[instCacheSlots]cachedInst, addr uint64, find func(uint64) (bin.Inst, bool)) (bin.Inst, bool) {
	e := &t[(addr^addr>>13)%instCacheSlots]
	if e.set && e.addr == addr {
		return e.in, e.ok
	}
	in, ok := find(addr)
	*e = cachedInst{addr: addr, in: in, ok: ok, set: true}
	return in, ok
}
