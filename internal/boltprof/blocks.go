package boltprof

import (
	"slices"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/binary/x86"
)

// blocks are a function's basic blocks as BOLT's CFG builder cuts them
// (BinaryFunction::buildCFG), in address order, with what the trace walk
// needs of each. Offsets are from the function's start.
type blocks struct {
	start []uint64 // where each block starts
	// last is the offset of each block's last instruction (nops included:
	// they are instructions of the block in BOLT's CFG).
	last []uint64
	// fallsThrough says block i has block i+1 as a successor.
	fallsThrough []bool
	// endsInCall says the last instruction of block i is a call.
	endsInCall []bool
	// toNext says block i+1 is a successor of block i: by its fall-through
	// or by a branch to it.
	toNext []bool
}

// inst is one decoded instruction of a function.
type inst struct {
	off       uint64
	kind      insn.Kind
	nop, trap bool
	target    uint64 // direct branch target (absolute), if hasTarget
	hasTarget bool
}

// blocksOf cuts f into BOLT's basic blocks; nil when it has no code.
func blocksOf(code *binary.File, f *Func) *blocks {
	insts, refs := decodeFunc(code, f)
	if len(insts) == 0 {
		return nil
	}
	labels := branchLabels(insts)
	isInst := func(off uint64) bool {
		_, found := findInst(insts, off)
		return found
	}
	jumps := jumpTables(code, f, insts)
	for _, r := range jumps {
		refs = append(refs, r)
	}
	tables := tableEntries(code.ELF(), f, refs, isInst)
	for _, es := range tables {
		for _, off := range es {
			labels[off] = true
		}
	}
	b := &blocks{}
	var succ []int // taken-branch successors per block
	prevEnded := false
	for _, in := range insts {
		switch {
		case len(b.start) == 0 || labels[in.off]:
			b.add(in)
			succ = append(succ, 0)
		case prevEnded && !joinsPrevBlock(in, b.instAt(insts, b.last[len(b.last)-1])):
			b.add(in)
			succ = append(succ, 0)
		}
		n := len(b.start) - 1
		b.last[n], b.endsInCall[n] = in.off, in.kind == insn.Call
		if in.hasTarget && isIntra(in) && (in.kind == insn.Jump || in.kind == insn.CondBranch) {
			succ[n]++
		}
		prevEnded = isTerminator(in)
	}
	b.setFallThroughs(insts, succ)
	b.setToNext(insts, func(jump uint64) []uint64 { return tables[jumps[jump].addr] })
	return b
}

// setToNext marks the blocks whose next block is a successor: by a
// direct branch to it, or as a case label of the table an indirect jump
// reads (caseLabels of the jump at an offset).
func (b *blocks) setToNext(insts []inst, caseLabels func(jump uint64) []uint64) {
	b.toNext = slices.Clone(b.fallsThrough)
	for _, in := range insts {
		if in.kind != insn.Jump && in.kind != insn.CondBranch && in.kind != insn.IndirectJump {
			continue
		}
		if i := b.containing(in.off, ^uint64(0)); i+1 < len(b.start) && branchesTo(in, b.start[i+1], caseLabels) {
			b.toNext[i] = true
		}
	}
}

// branchesTo reports whether the jump in can go to next: a direct branch
// to it, or an indirect jump whose table has it as a case.
func branchesTo(in inst, next uint64, caseLabels func(jump uint64) []uint64) bool {
	if in.kind == insn.IndirectJump {
		return slices.Contains(caseLabels(in.off), next)
	}
	return isIntra(in) && in.target == next
}

func (b *blocks) add(in inst) {
	b.start = append(b.start, in.off)
	b.last = append(b.last, in.off)
	b.fallsThrough = append(b.fallsThrough, false)
	b.endsInCall = append(b.endsInCall, false)
}

func compareU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// joinsPrevBlock: after a terminator, an unconditional jump stays in the
// block of a conditional branch before it (the pair `jcc; jmp`), unless
// that branch is a conditional tail call.
func joinsPrevBlock(in, prev inst) bool {
	if in.kind != insn.Jump {
		return false
	}
	return prev.kind != insn.Jump && prev.kind != insn.Return && !isCondTailCall(prev)
}

// setFallThroughs gives each block its fall-through edge as buildCFG
// does: a block without successors falls through unless it ends in a
// terminator (a conditional tail call falls through); a block with one
// falls through when it ends in a conditional branch.
func (b *blocks) setFallThroughs(insts []inst, succ []int) {
	for i := range b.start {
		last := b.instAt(insts, b.last[i])
		switch succ[i] {
		case 0:
			b.fallsThrough[i] = !isTerminator(last) || isCondTailCall(last)
		case 1:
			b.fallsThrough[i] = last.kind == insn.CondBranch
		}
	}
	b.fallsThrough[len(b.start)-1] = false
}

// instAt returns the instruction at off, which starts one.
func (b *blocks) instAt(insts []inst, off uint64) inst {
	i, _ := findInst(insts, off)
	return insts[i]
}

// findInst finds the instruction starting at off in insts (sorted).
func findInst(insts []inst, off uint64) (int, bool) {
	return slices.BinarySearchFunc(insts, off, func(in inst, off uint64) int { return compareU64(in.off, off) })
}

// isCondTailCall reports a conditional branch out of its function. The
// target of an inst is marked by isIntra at decode time: a conditional
// branch with a target keeps hasTarget only when it leaves the function.
func isCondTailCall(in inst) bool {
	return in.kind == insn.CondBranch && in.hasTarget && in.target == outside
}

// outside marks the target of a branch that leaves its function.
const outside = ^uint64(0)

func isTerminator(in inst) bool {
	switch in.kind {
	case insn.Jump, insn.IndirectJump, insn.CondBranch, insn.Return:
		return true
	}
	return in.trap
}

func isIntra(in inst) bool { return in.hasTarget && in.target != outside }

// branchLabels are the offsets where BOLT starts a block whatever comes
// before: the entry and the targets of direct branches inside the
// function.
func branchLabels(insts []inst) map[uint64]bool {
	labels := map[uint64]bool{0: true}
	for _, in := range insts {
		if isIntra(in) && in.kind != insn.Call {
			labels[in.target] = true
		}
	}
	return labels
}

// decodeFunc decodes f's [Addr, Addr+Size) linearly; targets are made
// function-relative, or outside. refs are the jump tables its
// instructions may reference.
func decodeFunc(code *binary.File, f *Func) (out []inst, refs []tableRef) {
	for in, bytes := range code.Decode(f.Addr, f.Addr+f.Size) {
		if r, ok := tableRefOf(bytes, in.End(), in.Kind); ok {
			refs = append(refs, r)
		}
		i := inst{off: in.Addr - f.Addr, kind: in.Kind, nop: isNop(bytes), trap: isTrap(bytes)}
		if t, ok := x86.DirectTarget(bytes, in.End()); ok {
			i.hasTarget = true
			i.target = outside
			if t >= f.Addr && t < f.Addr+f.Size {
				i.target = t - f.Addr
			}
		}
		out = append(out, i)
	}
	return out, refs
}

// isNop reports x86 nops: 90 and 0f 1f /0 under any operand-size or
// segment prefixes (not f3 90, pause).
func isNop(b []byte) bool {
	for len(b) > 1 && (b[0] == 0x66 || b[0] == 0x2e || b[0] == 0x3e) {
		b = b[1:]
	}
	return (len(b) == 1 && b[0] == 0x90) || (len(b) >= 3 && b[0] == 0x0f && b[1] == 0x1f)
}

// isTrap reports ud2, a terminator in BOLT.
func isTrap(b []byte) bool { return len(b) == 2 && b[0] == 0x0f && b[1] == 0x0b }

// containing returns the index of the block holding off, or -1.
func (b *blocks) containing(off, size uint64) int {
	if off >= size {
		return -1
	}
	i, found := slices.BinarySearch(b.start, off)
	if found {
		return i
	}
	return i - 1
}
