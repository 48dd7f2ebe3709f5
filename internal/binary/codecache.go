package binary

import (
	"math"

	"github.com/profgen/profgen/internal/binary/insn"
)

// codeCacheSlots is the size of each of a CodeCache's tables. The branch
// stacks of a profile hit some ten thousand addresses over and over, and
// the converters ask about each of them several times per sample.
const codeCacheSlots = 1 << 15

// CodeCache answers the code lookups of one goroutine from direct-mapped
// tables of the answers it gave last, in front of the File's code index,
// whose lookups are binary searches. It is not safe for concurrent use:
// each parsing or unwinding goroutine has its own. A table is allocated
// on its first use: an LBR aggregator asks IsCode and CrossesUncondBranch,
// an unwinder Inst and PrevInst.
type CodeCache struct {
	*File
	inst, prev *[codeCacheSlots]cachedInst
	isCode     *[codeCacheSlots]uint64 // address<<1 | whether it is code; 0: empty
	crosses    *[codeCacheSlots]uint64 // packRange's key | whether it crosses; 0: empty
}

// cachedInst is the instruction at or before addr, and whether there is
// one, in 16 bytes: the instruction starts back bytes before addr.
type cachedInst struct {
	addr uint64
	back uint16
	size uint16
	kind insn.Kind
	ok   bool
	set  bool
}

// NewCodeCache returns an empty cache over f's code.
func NewCodeCache(f *File) *CodeCache { return &CodeCache{File: f} }

// Inst is File.Inst.
func (c *CodeCache) Inst(addr uint64) (Inst, bool) {
	if c.inst == nil {
		c.inst = new([codeCacheSlots]cachedInst)
	}
	return lookupInst(c.inst, addr, c.File.Inst)
}

// PrevInst is File.PrevInst.
func (c *CodeCache) PrevInst(addr uint64) (Inst, bool) {
	if c.prev == nil {
		c.prev = new([codeCacheSlots]cachedInst)
	}
	return lookupInst(c.prev, addr, c.File.PrevInst)
}

// IsCode is File.IsCode.
func (c *CodeCache) IsCode(addr uint64) bool {
	if addr >= 1<<63 {
		return c.File.IsCode(addr)
	}
	if c.isCode == nil {
		c.isCode = new([codeCacheSlots]uint64)
	}
	e, known, yes := probeBit(c.isCode, addr<<1, addr)
	if !known {
		yes = c.File.IsCode(addr)
		keepBit(e, addr<<1, yes)
	}
	return yes
}

// CrossesUncondBranch is File.CrossesUncondBranch.
func (c *CodeCache) CrossesUncondBranch(start, end uint64) bool {
	key, ok := packRange(start, end)
	if !ok {
		return c.File.CrossesUncondBranch(start, end)
	}
	if c.crosses == nil {
		c.crosses = new([codeCacheSlots]uint64)
	}
	e, known, yes := probeBit(c.crosses, key, start^end<<7)
	if !known {
		yes = c.File.CrossesUncondBranch(start, end)
		keepBit(e, key, yes)
	}
	return yes
}

// packRange packs [start, end) into the upper 63 bits of a key when
// start is below 2^40 and the range shorter than 2^23 bytes.
func packRange(start, end uint64) (uint64, bool) {
	if start >= 1<<40 || end < start || end-start >= 1<<23 {
		return 0, false
	}
	return (start | (end-start)<<40) << 1, true
}

// probeBit returns the slot of key (its lowest bit clear, not 0) in the
// table, whether it holds the answer for key, and the answer.
func probeBit(t *[codeCacheSlots]uint64, key, hash uint64) (e *uint64, known, yes bool) {
	e = &t[slotOf(hash)]
	return e, *e != 0 && *e&^1 == key, *e&1 == 1
}

// keepBit stores the answer for key in its slot.
func keepBit(e *uint64, key uint64, yes bool) {
	*e = key
	if yes {
		*e |= 1
	}
}

// lookupInst answers from the table, or asks find and keeps its answer.
func lookupInst(t *[codeCacheSlots]cachedInst, addr uint64, find func(uint64) (Inst, bool)) (Inst, bool) {
	e := &t[slotOf(addr)]
	if e.set && e.addr == addr {
		if !e.ok {
			return Inst{}, false
		}
		return Inst{Addr: addr - uint64(e.back), Size: uint32(e.size), Kind: e.kind}, true
	}
	in, ok := find(addr)
	switch {
	case !ok:
		*e = cachedInst{addr: addr, set: true}
	case addr-in.Addr <= math.MaxUint16 && in.Size <= math.MaxUint16:
		*e = cachedInst{addr: addr, back: uint16(addr - in.Addr), size: uint16(in.Size), kind: in.Kind, ok: true, set: true}
	}
	return in, ok
}

func slotOf(key uint64) uint64 { return (key ^ key>>13 ^ key>>29) % codeCacheSlots }
