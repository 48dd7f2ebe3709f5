package x86

// LLVM's AT&T mnemonics: x86asm's names, renamed and size-suffixed
// where LLVM's printer differs.

import (
	"strings"

	"golang.org/x/arch/x86/x86asm"
)

// mnemonic is LLVM's name of the instruction, with the AT&T size suffix
// where LLVM writes one.
func mnemonic(inst *x86asm.Inst) string {
	name := strings.TrimSuffix(strings.ToLower(inst.Op.String()), "_xmm")
	if m, ok := llvmNames[inst.Op]; ok {
		name = m
	}
	for _, special := range []func(*x86asm.Inst, string) (string, bool){
		controlName, moveName, systemName, otherName, comparePredicate, x87Name,
	} {
		if m, ok := special(inst, name); ok {
			return m
		}
	}
	if sizedOps[inst.Op] || isCMOV(inst.Op) {
		return name + suffix(argBytes(inst, inst.Args[0]))
	}
	return name
}

// controlName names calls, jumps, returns and the stack operations.
func controlName(inst *x86asm.Inst, name string) (string, bool) {
	switch inst.Op {
	case x86asm.CALL:
		return "callq", true
	case x86asm.JMP:
		if isRel(inst.Args[0]) {
			return "jmp", true
		}
		return "jmpq", true
	case x86asm.RET:
		return "retq", true
	case x86asm.LRET, x86asm.SYSRET, x86asm.SYSEXIT, x86asm.LCALL, x86asm.LJMP:
		if hasREXW(inst) {
			return name + "q", true
		}
		return name + "l", true
	case x86asm.PUSH, x86asm.POP:
		if inst.DataSize == 16 {
			return name + "w", true
		}
		return name + "q", true
	case x86asm.INT:
		if inst.Opcode>>24 == 0xcc {
			inst.Args[0] = nil
			return "int3", true
		}
	}
	return "", false
}

// moveName names the moves and conversions whose suffixes are not their
// first operand's size.
func moveName(inst *x86asm.Inst, name string) (string, bool) {
	switch inst.Op {
	case x86asm.MOVZX, x86asm.MOVSX:
		return name[:4] + suffix(argBytes(inst, inst.Args[1])) + suffix(argBytes(inst, inst.Args[0])), true
	case x86asm.MOV:
		if m := movabs(inst); m != "" {
			return m, true
		}
		if opc := inst.Opcode >> 24; (opc == 0x8c || opc == 0x8e) && (isMem(inst.Args[0]) || isMem(inst.Args[1])) {
			return "movw", true // a segment register to or from memory is 16 bits
		}
		if isControlReg(inst.Args[0]) || isControlReg(inst.Args[1]) {
			return "movq", true
		}
	case x86asm.MOVHPS, x86asm.MOVHPD, x86asm.MOVLPS, x86asm.MOVLPD:
		_, r0 := inst.Args[0].(x86asm.Reg)
		_, r1 := inst.Args[1].(x86asm.Reg)
		if r0 && r1 { // 0F 16 and 0F 12 between registers
			if inst.Op == x86asm.MOVHPS || inst.Op == x86asm.MOVHPD {
				return "movlhps", true
			}
			return "movhlps", true
		}
	case x86asm.CVTSI2SD, x86asm.CVTSI2SS, x86asm.VCVTSI2SD, x86asm.VCVTSI2SS:
		if isMem(inst.Args[len(argList(inst))-1]) {
			return name + suffix(inst.MemBytes), true
		}
		return name, true
	}
	return "", false
}

// systemName names the port, descriptor-table and segment instructions.
func systemName(inst *x86asm.Inst, name string) (string, bool) {
	switch inst.Op {
	case x86asm.IN:
		return name + suffix(argBytes(inst, inst.Args[0])), true
	case x86asm.OUT:
		return name + suffix(argBytes(inst, inst.Args[1])), true
	case x86asm.LGDT, x86asm.LIDT, x86asm.SGDT, x86asm.SIDT:
		return name + "q", true
	case x86asm.STR, x86asm.SLDT, x86asm.SMSW:
		return name + suffix(argBytes(inst, inst.Args[0])), true
	case x86asm.LAR, x86asm.LSL:
		if r, ok := inst.Args[1].(x86asm.Reg); ok && gprBytes(r) > 2 {
			inst.Args[1] = x86asm.AX + (r-x86asm.EAX)%16 // the source is 16 bits
		}
		return name + suffix(argBytes(inst, inst.Args[0])), true
	}
	return "", false
}

// otherName names the rest of the special cases.
func otherName(inst *x86asm.Inst, name string) (string, bool) {
	switch inst.Op {
	case x86asm.XLATB:
		inst.Args[0] = nil
		return name, true
	case x86asm.FSUB, x86asm.FSUBR, x86asm.FDIV, x86asm.FDIVR, x86asm.FSUBP, x86asm.FSUBRP, x86asm.FDIVP, x86asm.FDIVRP:
		if opc := inst.Opcode >> 24; (opc == 0xdc || opc == 0xde) && !hasMemArg(inst) {
			return swappedX87[inst.Op], true // AT&T's historic swap of the reversed forms, which LLVM keeps
		}
	case x86asm.NOP:
		if inst.Args[0] != nil {
			return name + suffix(inst.DataSize/8), true
		}
		return name, true
	case x86asm.CRC32:
		return name + suffix(argBytes(inst, inst.Args[1])), true
	case x86asm.CLFLUSH, x86asm.XSAVEOPT:
		if hasPrefix(inst, 0x66) { // clflushopt, clwb: x86asm ignores the 66
			return map[x86asm.Op]string{x86asm.CLFLUSH: "clflushopt", x86asm.XSAVEOPT: "clwb"}[inst.Op], true
		}
	}
	return "", false
}

// llvmNames are LLVM's names where they are not x86asm's in lower case.
var llvmNames = map[x86asm.Op]string{
	x86asm.INSD:    "insl",
	x86asm.OUTSD:   "outsl",
	x86asm.CMPSD:   "cmpsl",
	x86asm.LODSD:   "lodsl",
	x86asm.STOSD:   "stosl",
	x86asm.SCASD:   "scasl",
	x86asm.MOVSD:   "movsl",
	x86asm.FWAIT:   "wait",
	x86asm.LLDT:    "lldtw",
	x86asm.LTR:     "ltrw",
	x86asm.MOVSXD:  "movslq",
	x86asm.FCOMIP:  "fcompi",
	x86asm.FUCOMIP: "fucompi",
	x86asm.LMSW:    "lmsww",
	x86asm.CBW:     "cbtw",
	x86asm.CWDE:    "cwtl",
	x86asm.CDQE:    "cltq",
	x86asm.CWD:     "cwtd",
	x86asm.CDQ:     "cltd",
	x86asm.CQO:     "cqto",
	x86asm.IRETQ:   "iretq",
	x86asm.IRETD:   "iretl",
	x86asm.IRET:    "iretw",
}

// sizedOps are the integer instructions LLVM names with a size suffix
// (addq, movl, ...), the size of their first Intel operand.
var sizedOps = map[x86asm.Op]bool{}

func init() {
	for _, op := range []x86asm.Op{
		x86asm.ADC, x86asm.ADD, x86asm.AND, x86asm.BSF, x86asm.BSR, x86asm.BSWAP, x86asm.BT,
		x86asm.BTC, x86asm.BTR, x86asm.BTS, x86asm.CMP, x86asm.CMPXCHG, x86asm.DEC, x86asm.DIV,
		x86asm.IDIV, x86asm.IMUL, x86asm.INC, x86asm.LEA, x86asm.MOV, x86asm.MUL, x86asm.NEG,
		x86asm.NOT, x86asm.OR, x86asm.RCL, x86asm.RCR, x86asm.ROL, x86asm.ROR, x86asm.SAR,
		x86asm.SBB, x86asm.SHL, x86asm.SHLD, x86asm.SHR, x86asm.SHRD, x86asm.SUB, x86asm.TEST,
		x86asm.XADD, x86asm.XCHG, x86asm.XOR, x86asm.LZCNT, x86asm.TZCNT, x86asm.POPCNT,
		x86asm.ANDN, x86asm.BEXTR, x86asm.BLSI, x86asm.BLSMSK, x86asm.BLSR, x86asm.BZHI,
		x86asm.MULX, x86asm.PDEP, x86asm.PEXT, x86asm.RORX, x86asm.SARX, x86asm.SHLX, x86asm.SHRX,
		x86asm.MOVBE, x86asm.MOVNTI, x86asm.LFS, x86asm.LGS, x86asm.LSS, x86asm.UD1,
		x86asm.RDRAND,
	} {
		sizedOps[op] = true
	}
}

// ssePredicates and avxPredicates name the comparison predicates of
// cmpps and its kind (an imm8), which LLVM writes into the mnemonic
// (cmpltps); vpcmpPredicates those of the AVX-512 integer comparisons.
var (
	avxPredicates = [...]string{"eq", "lt", "le", "unord", "neq", "nlt", "nle", "ord",
		"eq_uq", "nge", "ngt", "false", "neq_oq", "ge", "gt", "true",
		"eq_os", "lt_oq", "le_oq", "unord_s", "neq_us", "nlt_uq", "nle_uq", "ord_s",
		"eq_us", "nge_uq", "ngt_uq", "false_os", "neq_os", "ge_oq", "gt_oq", "true_us"}
	vpcmpPredicates = [...]string{"eq", "lt", "le", "false", "neq", "nlt", "nle", "true"}
)

// comparePredicate names a comparison with its predicate immediate
// (cmpps $1 is cmpltps), dropping the immediate; ok is false for other
// instructions.
func comparePredicate(inst *x86asm.Inst, name string) (string, bool) {
	args := argList(inst)
	if len(args) == 0 {
		return "", false
	}
	imm, isImm := args[len(args)-1].(x86asm.Imm)
	if !isImm {
		return "", false
	}
	var preds []string
	var head string
	switch inst.Op {
	case x86asm.CMPPS, x86asm.CMPPD, x86asm.CMPSS, x86asm.CMPSD_XMM:
		preds, head = avxPredicates[:8], "cmp"
	case x86asm.VCMPPS, x86asm.VCMPPD, x86asm.VCMPSS, x86asm.VCMPSD:
		preds, head = avxPredicates[:], "vcmp"
	case x86asm.VPCMPB, x86asm.VPCMPW, x86asm.VPCMPD, x86asm.VPCMPQ:
		preds, head = vpcmpPredicates[:], "vpcmp"
	case x86asm.VPCMPUB, x86asm.VPCMPUW, x86asm.VPCMPUD, x86asm.VPCMPUQ:
		preds, head = vpcmpPredicates[:], "vpcmp"
	default:
		return "", false
	}
	if imm < 0 || int(imm) >= len(preds) {
		return "", false
	}
	inst.Args[len(args)-1] = nil
	return head + preds[imm] + name[len(head):], true
}

var swappedX87 = map[x86asm.Op]string{
	x86asm.FSUB: "fsubr", x86asm.FSUBR: "fsub", x86asm.FDIV: "fdivr", x86asm.FDIVR: "fdiv",
	x86asm.FSUBP: "fsubrp", x86asm.FSUBRP: "fsubp", x86asm.FDIVP: "fdivrp", x86asm.FDIVRP: "fdivp",
}

// x87Name suffixes an x87 instruction with a memory operand by its size,
// as LLVM does: s, l, t for 32-, 64- and 80-bit reals; s, l, ll for
// 16-, 32- and 64-bit integers (fi*).
func x87Name(inst *x86asm.Inst, name string) (string, bool) {
	if !strings.HasPrefix(name, "f") || !hasMemArg(inst) {
		return "", false
	}
	switch inst.Op {
	case x86asm.FADD, x86asm.FSUB, x86asm.FSUBR, x86asm.FMUL, x86asm.FDIV, x86asm.FDIVR,
		x86asm.FCOM, x86asm.FCOMP, x86asm.FLD, x86asm.FST, x86asm.FSTP:
		switch inst.MemBytes {
		case 4:
			return name + "s", true
		case 8:
			return name + "l", true
		}
		return name + "t", true // the 80-bit forms of fld and fstp
	case x86asm.FIADD, x86asm.FISUB, x86asm.FISUBR, x86asm.FIMUL, x86asm.FIDIV, x86asm.FIDIVR,
		x86asm.FICOM, x86asm.FICOMP, x86asm.FILD, x86asm.FIST, x86asm.FISTP, x86asm.FISTTP:
		return name + map[int]string{2: "s", 4: "l", 8: "ll"}[inst.MemBytes], true
	}
	return "", false
}

func isCMOV(op x86asm.Op) bool {
	return strings.HasPrefix(op.String(), "CMOV")
}

// movabs names the moves with a 64-bit immediate or absolute address
// (REX.W B8+r, A0-A3), which LLVM calls movabs.
func movabs(inst *x86asm.Inst) string {
	opc := inst.Opcode >> 24
	switch {
	case opc >= 0xb8 && opc <= 0xbf && inst.DataSize == 64:
		return "movabsq"
	case opc >= 0xa0 && opc <= 0xa3:
		return "movabs" + suffix(argBytes(inst, inst.Args[0])+argBytes(inst, inst.Args[1])-inst.MemBytes)
	}
	return ""
}
