package boltprof

import (
	"debug/elf"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/binary/x86"
)

// Which table an indirect jump reads decides its successors in BOLT's CFG:
// every case label of that table, the block right after the jump
// included when a case starts there. BOLT finds the table by walking back
// from the jump over the function's earlier instructions in address order
// (X86MCPlusBuilder::analyzeIndirectBranch), whatever the control flow:
//   - `jmp *table(,%idx,8)`: the table is the operand (absolute entries);
//   - `jmp *%r1`: the last write of %r1 before it must be either a load
//     `mov table(,%idx,8), %r1` (absolute entries) or `add %r2, %r1`, and
//     then, walking on over the writes of %r1 and %r2, a `movslq
//     (%rA,%idx,4), %rB` and a `lea table(%rip), %rA` ({rA, rB} = {r1, r2}):
//     PIC entries. Any other write first: no table.

// jumpTables maps each indirect jump of f (offset) to the table it reads.
func jumpTables(code *binary.File, f *Func, insts []inst) map[uint64]tableRef {
	var flows []x86.Flow
	out := map[uint64]tableRef{}
	if code.ELF().Machine != elf.EM_X86_64 {
		return out
	}
	for j, in := range insts {
		if in.kind != insn.IndirectJump {
			continue
		}
		if flows == nil {
			flows = flowsOf(code, f)
		}
		if j < len(flows) {
			if r, ok := tableOfJump(flows, j); ok {
				out[in.off] = r
			}
		}
	}
	return out
}

// flowsOf decodes f's instructions for the walk, in the order of
// decodeFunc.
func flowsOf(code *binary.File, f *Func) []x86.Flow {
	var flows []x86.Flow
	for in, b := range code.Decode(f.Addr, f.Addr+f.Size) {
		flows = append(flows, x86.FlowOf(b, in.End()))
	}
	return flows
}

// tableOfJump analyses the indirect jump flows[j].
func tableOfJump(flows []x86.Flow, j int) (tableRef, bool) {
	jump := flows[j]
	switch jump.Shape {
	case x86.ShapeJumpMem:
		return absoluteTable(jump.Mem)
	case x86.ShapeJumpReg:
	default:
		return tableRef{}, false
	}
	r1 := jump.Dst
	for k := j - 1; k >= 0; k-- {
		fl := flows[k]
		if !fl.WritesReg(r1) {
			continue
		}
		switch {
		case fl.Shape == x86.ShapeLoad && fl.Dst == r1:
			return absoluteTable(fl.Mem)
		case fl.Shape == x86.ShapeAdd64 && fl.Dst == r1 && fl.Src != r1:
			return picTable(flows[:k], r1, fl.Src)
		}
		return tableRef{}, false
	}
	return tableRef{}, false
}

// absoluteTable accepts a load of 8-byte entries from a fixed address:
// no base register but RIP, an index scaled by 8, no segment.
func absoluteTable(m x86.Mem) (tableRef, bool) {
	if (m.Base != x86.NoGPR && m.Base != x86.RIP) || m.Segment || m.Index == x86.NoGPR || m.Scale != 8 {
		return tableRef{}, false
	}
	return tableRef{addr: uint64(m.Disp)}, true
}

// picTable walks back from `add %r2, %r1` (flows ends before it) for the
// sign-extending load of the entry and the lea of the table
// (analyzePICJumpTable).
func picTable(flows []x86.Flow, r1, r2 x86.GPR) (tableRef, bool) {
	loaded := false // the movslq is seen; r1 is the table's register
	for k := len(flows) - 1; k >= 0; k-- {
		fl := flows[k]
		if !loaded && !fl.WritesReg(r1) && !fl.WritesReg(r2) {
			continue
		}
		if !loaded {
			if fl.Shape != x86.ShapeLoadSX32 {
				return tableRef{}, false
			}
			if fl.Dst != r2 {
				r1, r2 = r2, r1
			}
			if fl.Dst != r2 || !indexedBy(fl.Mem, r1) {
				return tableRef{}, false
			}
			loaded = true
			continue
		}
		if !fl.WritesReg(r1) {
			continue
		}
		if fl.Shape != x86.ShapeLea64 || fl.Dst != r1 || !ripRelative(fl.Mem) {
			return tableRef{}, false
		}
		return tableRef{addr: uint64(fl.Mem.Disp), pic: true}, true
	}
	return tableRef{}, false
}

// indexedBy matches (%base,%idx,4) with no displacement nor segment.
func indexedBy(m x86.Mem, base x86.GPR) bool {
	return m.Index != x86.NoGPR && m.Base == base && m.Scale == 4 && m.Disp == 0 && !m.Segment
}

func ripRelative(m x86.Mem) bool {
	return m.Base == x86.RIP && m.Index == x86.NoGPR && !m.Segment
}
