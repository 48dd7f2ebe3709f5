package binary

import (
	"math"

	"github.com/profgen/profgen/internal/binary/insn"
)

// codeCacheSlots is the size of each of a CodeCache's tables. The branch
// stacks of a profile hit a few thousand addresses over and over, and the
// converters ask about each of them several times per sample.
const codeCacheSlots = 1 << 15

// CodeCache answers the code lookups of one goroutine from direct-mapped
// tables of the answers it gave last, in front of the File's code index,
// whose lookups are binary searches. It is not safe for concurrent use:
// each parsing or unwinding goroutine has its own.
type CodeCache struct {
	*File
	inst, prev *[codeCacheSlots]cachedInst
	crosses    *[codeCacheSlots]cachedRange
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

// cachedRange is whether an unconditional branch starts in [start, end).
type cachedRange struct {
	start, end uint64
	crosses    bool
	set        bool
}

// NewCodeCache returns an empty cache over f's code.
func NewCodeCache(f *File) *CodeCache {
	return &CodeCache{File: f, inst: new([codeCacheSlots]cachedInst), prev: new([codeCacheSlots]cachedInst),
		crosses: new([codeCacheSlots]cachedRange)}
}

// Inst is File.Inst.
func (c *CodeCache) Inst(addr uint64) (Inst, bool) {
	return lookupInst(c.inst, addr, c.File.Inst)
}

// PrevInst is File.PrevInst.
func (c *CodeCache) PrevInst(addr uint64) (Inst, bool) {
	return lookupInst(c.prev, addr, c.File.PrevInst)
}

// IsCode is File.IsCode.
func (c *CodeCache) IsCode(addr uint64) bool {
	_, ok := c.Inst(addr)
	return ok
}

// CrossesUncondBranch is File.CrossesUncondBranch.
func (c *CodeCache) CrossesUncondBranch(start, end uint64) bool {
	e := &c.crosses[slotOf(start^end<<7)]
	if e.set && e.start == start && e.end == end {
		return e.crosses
	}
	crosses := c.File.CrossesUncondBranch(start, end)
	*e = cachedRange{start: start, end: end, crosses: crosses, set: true}
	return crosses
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
