package x86

import (
	"golang.org/x/arch/x86/x86asm"

	"github.com/profgen/profgen/internal/binary/insn"
)

// GPR is a general-purpose register of any width, named by its 64-bit
// form: 0 is RAX, 15 R15; NoGPR none; RIP the instruction pointer.
type GPR int8

const (
	NoGPR GPR = -1
	RIP   GPR = 16
)

// Mem is a memory operand, Base + Index*Scale + Disp; with a RIP base,
// Disp is already the address it names.
type Mem struct {
	Base, Index GPR
	Scale       uint8
	Disp        int64
	Segment     bool // a segment override
}

// Shape names the instructions that compute a jump's target from a
// table, as BOLT's jump-table analysis matches them (LLVM opcodes).
type Shape uint8

const (
	ShapeOther    Shape = iota
	ShapeLoad           // mov mem, reg (16, 32 or 64 bits): MOV*rm
	ShapeAdd64          // add reg64, reg64: ADD64rr
	ShapeLoadSX32       // movslq mem32, reg64: MOVSX64rm32
	ShapeLea64          // lea mem, reg64: LEA64r
	ShapeJumpReg        // jmp *reg64: JMP64r
	ShapeJumpMem        // jmp *mem: JMP64m
)

// Flow is what data-flow walks need of an instruction: the registers it
// writes and, for the shapes above, its operands: Dst is the register
// written (the jump's register for ShapeJumpReg), Src the added one.
type Flow struct {
	Writes uint32 // bit i set: GPR i written, at any width
	Shape  Shape
	Dst    GPR
	Src    GPR
	Mem    Mem
}

// Writes reports whether f writes r.
func (f Flow) WritesReg(r GPR) bool { return r >= 0 && r < 16 && f.Writes&(1<<r) != 0 }

// FlowOf decodes the instruction in b, which ends at end. Bytes that do
// not decode give a Flow that writes nothing.
func FlowOf(b []byte, end uint64) Flow {
	inst, err := x86asm.Decode(b, 64)
	if err != nil || inst.Op == 0 {
		return Flow{Dst: NoGPR, Src: NoGPR}
	}
	f := Flow{Writes: writes(&inst), Dst: NoGPR, Src: NoGPR}
	f.Shape, f.Dst, f.Src, f.Mem = shapeOf(&inst, end)
	return f
}

// shapeOf matches the shapes; the memory operand's RIP-relative
// displacement is resolved against end.
func shapeOf(inst *x86asm.Inst, end uint64) (Shape, GPR, GPR, Mem) {
	dst, dstWidth := gpr(inst.Args[0])
	src, srcWidth := gpr(inst.Args[1])
	mem, hasMem := memOf(inst.Args[1], end)
	switch {
	case inst.Op == x86asm.MOV && dst != NoGPR && dstWidth >= 16 && hasMem:
		return ShapeLoad, dst, NoGPR, mem
	case inst.Op == x86asm.ADD && dstWidth == 64 && srcWidth == 64:
		return ShapeAdd64, dst, src, Mem{}
	case inst.Op == x86asm.MOVSXD && dstWidth == 64 && hasMem && inst.MemBytes == 4:
		return ShapeLoadSX32, dst, NoGPR, mem
	case inst.Op == x86asm.LEA && dstWidth == 64 && hasMem:
		return ShapeLea64, dst, NoGPR, mem
	case inst.Op == x86asm.JMP && dstWidth == 64:
		return ShapeJumpReg, dst, NoGPR, Mem{}
	}
	if m, ok := memOf(inst.Args[0], end); ok && inst.Op == x86asm.JMP {
		return ShapeJumpMem, NoGPR, NoGPR, m
	}
	return ShapeOther, NoGPR, NoGPR, Mem{}
}

// gpr returns the general-purpose register a is and its width in bits.
func gpr(a x86asm.Arg) (GPR, int) {
	r, ok := a.(x86asm.Reg)
	switch {
	case !ok:
		return NoGPR, 0
	case r >= x86asm.RAX && r <= x86asm.R15:
		return GPR(r - x86asm.RAX), 64
	case r >= x86asm.EAX && r <= x86asm.R15L:
		return GPR(r - x86asm.EAX), 32
	case r >= x86asm.AX && r <= x86asm.R15W:
		return GPR(r - x86asm.AX), 16
	case r >= x86asm.AL && r <= x86asm.BL:
		return GPR(r - x86asm.AL), 8
	case r >= x86asm.AH && r <= x86asm.BH:
		return GPR(r - x86asm.AH), 8
	case r >= x86asm.SPB && r <= x86asm.R15B:
		return GPR(r-x86asm.SPB) + 4, 8
	case r == x86asm.RIP:
		return RIP, 64
	}
	return NoGPR, 0
}

// memOf converts a memory operand; a RIP base takes end + Disp.
func memOf(a x86asm.Arg, end uint64) (Mem, bool) {
	m, ok := a.(x86asm.Mem)
	if !ok {
		return Mem{}, false
	}
	base, _ := gpr(m.Base)
	index, _ := gpr(m.Index)
	out := Mem{Base: base, Index: index, Scale: m.Scale, Disp: m.Disp, Segment: m.Segment != 0}
	if base == RIP {
		out.Disp = int64(end) + m.Disp
	}
	return out, true
}

// writes lists the registers an instruction writes: its destination
// register, and the registers some instructions write implicitly (as
// LLVM's instruction descriptions list them).
func writes(inst *x86asm.Inst) uint32 {
	w := implicitWrites[inst.Op]
	if isStringOp(inst.Op) && !hasRep(inst) {
		w &^= regBits(1) // rcx counts only under rep
	}
	if byteWide(inst) && (inst.Op == x86asm.MUL || inst.Op == x86asm.DIV || inst.Op == x86asm.IDIV) {
		w &^= regBits(2) // ax, not dx:ax
	}
	if !readsOnlyFirst(inst.Op) {
		if r, _ := gpr(inst.Args[0]); r >= 0 && r < 16 {
			w |= 1 << r
		}
	}
	if inst.Op == x86asm.XCHG || inst.Op == x86asm.XADD {
		if r, _ := gpr(inst.Args[1]); r >= 0 && r < 16 {
			w |= 1 << r
		}
	}
	if inst.Op == x86asm.IMUL && inst.Args[1] == nil {
		w |= regBits(0, 2) // imul one operand: rdx:rax
		if byteWide(inst) {
			w &^= regBits(2)
		}
	}
	return w
}

// hasRep reports a rep or repne prefix.
func hasRep(inst *x86asm.Inst) bool {
	for _, p := range inst.Prefix {
		if p == 0 {
			break
		}
		if p&0xff == x86asm.PrefixREP&0xff || p&0xff == x86asm.PrefixREPN&0xff {
			return true
		}
	}
	return false
}

// byteWide reports a one-operand instruction on a byte.
func byteWide(inst *x86asm.Inst) bool {
	if _, w := gpr(inst.Args[0]); w == 8 {
		return true
	}
	_, mem := inst.Args[0].(x86asm.Mem)
	return mem && inst.MemBytes == 1
}

// readsOnlyFirst reports instructions that read their first operand
// without writing it.
func readsOnlyFirst(op x86asm.Op) bool {
	switch op {
	case x86asm.CMP, x86asm.TEST, x86asm.BT, x86asm.PUSH, x86asm.CALL, x86asm.JMP,
		x86asm.MUL, x86asm.DIV, x86asm.IDIV, x86asm.OUT, x86asm.NOP:
		return true
	}
	return kindOf(&x86asm.Inst{Op: op}) == insn.CondBranch
}

func regBits(rs ...GPR) uint32 {
	var w uint32
	for _, r := range rs {
		w |= 1 << r
	}
	return w
}

// implicitWrites are the registers instructions write beside their
// operands: 0 RAX, 1 RCX, 2 RDX, 3 RBX, 4 RSP, 5 RBP, 6 RSI, 7 RDI, 11 R11.
var implicitWrites = map[x86asm.Op]uint32{
	x86asm.CBW: regBits(0), x86asm.CWDE: regBits(0), x86asm.CDQE: regBits(0),
	x86asm.CWD: regBits(2), x86asm.CDQ: regBits(2), x86asm.CQO: regBits(2),
	x86asm.MUL: regBits(0, 2), x86asm.DIV: regBits(0, 2), x86asm.IDIV: regBits(0, 2),
	x86asm.CPUID: regBits(0, 1, 2, 3), x86asm.RDTSC: regBits(0, 2), x86asm.RDTSCP: regBits(0, 1, 2),
	x86asm.RDMSR: regBits(0, 2), x86asm.RDPMC: regBits(0, 2), x86asm.XGETBV: regBits(0, 2),
	x86asm.SYSCALL: regBits(1, 11), x86asm.CMPXCHG: regBits(0),
	x86asm.CMPXCHG8B: regBits(0, 2), x86asm.CMPXCHG16B: regBits(0, 2),
	x86asm.LAHF: regBits(0), x86asm.XLATB: regBits(0),
	x86asm.PUSH: regBits(4), x86asm.POP: regBits(4), x86asm.CALL: regBits(4), x86asm.RET: regBits(4),
	x86asm.LEAVE: regBits(4, 5), x86asm.ENTER: regBits(4, 5),
	x86asm.LOOP: regBits(1), x86asm.LOOPE: regBits(1), x86asm.LOOPNE: regBits(1),
	x86asm.MOVSB: regBits(1, 6, 7), x86asm.MOVSW: regBits(1, 6, 7), x86asm.MOVSD: regBits(1, 6, 7), x86asm.MOVSQ: regBits(1, 6, 7),
	x86asm.STOSB: regBits(1, 7), x86asm.STOSW: regBits(1, 7), x86asm.STOSD: regBits(1, 7), x86asm.STOSQ: regBits(1, 7),
	x86asm.LODSB: regBits(0, 1, 6), x86asm.LODSW: regBits(0, 1, 6), x86asm.LODSD: regBits(0, 1, 6), x86asm.LODSQ: regBits(0, 1, 6),
	x86asm.SCASB: regBits(1, 7), x86asm.SCASW: regBits(1, 7), x86asm.SCASD: regBits(1, 7), x86asm.SCASQ: regBits(1, 7),
	x86asm.CMPSB: regBits(1, 6, 7), x86asm.CMPSW: regBits(1, 6, 7), x86asm.CMPSD: regBits(1, 6, 7), x86asm.CMPSQ: regBits(1, 6, 7),
}
