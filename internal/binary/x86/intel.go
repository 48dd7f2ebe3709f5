package x86

// The text of an instruction as LLVM's Intel printer (X86IntelInstPrinter)
// writes it, which llvm-profgen --x86-asm-syntax=intel
// --show-disassembly-only prints: Intel's operand order, registers and
// immediates bare, memory as "qword ptr fs:[rbx + 8*rcx - 16]", branch
// targets as absolute hex addresses. The mnemonics are x86asm's (Intel's)
// but where LLVM's differ; the decoding and the operand values are those
// of the AT&T printer (att.go).

import (
	"strconv"
	"strings"

	"golang.org/x/arch/x86/x86asm"
)

// IntelText is Text in Intel syntax.
func IntelText(b []byte, pc uint64) string { return render(b, pc, intel) }

var intel = syntax{
	mnemonic: intelMnemonic,
	operands: intelOperands,
	reg:      regName,
	sized:    func(name string, _ int) string { return name },
}

// intelMnemonic is LLVM's Intel name of the instruction.
func intelMnemonic(inst *x86asm.Inst) string {
	name := strings.TrimSuffix(strings.ToLower(inst.Op.String()), "_xmm")
	if m, ok := intelNames[inst.Op]; ok {
		name = m
	}
	if m, ok := comparePredicate(inst, name); ok {
		return m
	}
	switch inst.Op {
	case x86asm.INT:
		if inst.Opcode>>24 == 0xcc {
			inst.Args[0] = nil
			return "int3"
		}
	case x86asm.XLATB:
		inst.Args[0] = nil
	case x86asm.MOV:
		if movabs(inst) != "" {
			return "movabs"
		}
	case x86asm.MOVHPS, x86asm.MOVHPD, x86asm.MOVLPS, x86asm.MOVLPD:
		if m, ok := moveName(inst, name); ok {
			return m // movlhps and movhlps
		}
	case x86asm.CLFLUSH, x86asm.XSAVEOPT:
		if m, ok := otherName(inst, name); ok {
			return m // clflushopt and clwb
		}
	case x86asm.LAR, x86asm.LSL:
		systemName(inst, name) // the 16-bit source
	case x86asm.LCALL, x86asm.LJMP:
		if !hasREXW(inst) {
			return name[1:] // call and jmp through a far pointer; lcall and ljmp with REX.W
		}
	case x86asm.LRET, x86asm.SYSRET, x86asm.SYSEXIT:
		if hasREXW(inst) {
			return name + "q"
		}
	}
	return name
}

// intelNames are LLVM's Intel names where they are not x86asm's in lower
// case.
var intelNames = map[x86asm.Op]string{
	x86asm.LRET:    "retf",
	x86asm.FWAIT:   "wait",
	x86asm.FCOMIP:  "fcompi",
	x86asm.FUCOMIP: "fucompi",
}

var intelSyntax = operandSyntax{arg: intelArg}

// intelOperands formats the operands in Intel order, with AVX-512
// masking after the destination as LLVM writes it.
func intelOperands(inst *x86asm.Inst, pc uint64) []string {
	out, args, enter := orderedOperands(inst, pc, intelSyntax)
	if enter {
		return out
	}
	if xchgRegs(inst) { // the order AT&T keeps, as LLVM prints it
		out[0], out[1] = out[1], out[0]
	}
	intelX87RegNames(inst, args, out)
	return out
}

// intelX87RegNames writes the stack register the ModRM byte encodes as
// st(i), st(0) included, as x87RegNames does for AT&T; out is in Intel
// order.
func intelX87RegNames(inst *x86asm.Inst, args []x86asm.Arg, out []string) {
	att := make([]string, len(out))
	for i := range out {
		att[len(out)-1-i] = out[i]
	}
	x87RegNames(inst, args, att)
	for i := range out {
		out[i] = strings.TrimPrefix(att[len(out)-1-i], "%")
	}
}

func intelArg(inst *x86asm.Inst, pc uint64, a x86asm.Arg) string {
	switch a := a.(type) {
	case x86asm.Reg:
		return regName(a)
	case x86asm.Imm:
		return immText(inst, a)
	case x86asm.Rel:
		return "0x" + strconv.FormatUint(pc+uint64(inst.Len)+uint64(int64(a)), 16)
	case x86asm.Mem:
		return memSize(inst) + intelMem(inst, a)
	}
	return "?"
}

// memSize is the "qword ptr " before a memory operand of the size the
// instruction reads or writes there; none for the operands LLVM gives no
// size (addresses, far pointers).
func memSize(inst *x86asm.Inst) string {
	if name, ok := sizeNames[memBytes(inst)]; ok && !unsizedMem[inst.Op] {
		return name + " ptr "
	}
	return ""
}

var unsizedMem = map[x86asm.Op]bool{
	x86asm.LEA: true, x86asm.LCALL: true, x86asm.LJMP: true, x86asm.LFS: true, x86asm.LGS: true, x86asm.LSS: true,
}

// memBytes is the size LLVM gives a memory operand: x86asm's, but the
// element size for gathers and scatters, the operand size for string
// operations, a byte for cache-line operations.
func memBytes(inst *x86asm.Inst) int {
	name := inst.Op.String()
	switch {
	case strings.Contains(name, "GATHER") || strings.Contains(name, "SCATTER"):
		return elementBytes(name)
	case isStringOp(inst.Op):
		return map[byte]int{'B': 1, 'W': 2, 'D': 4, 'Q': 8}[name[len(name)-1]]
	case strings.HasPrefix(name, "PREFETCH"), inst.Op == x86asm.CLFLUSH, inst.Op == x86asm.INVLPG,
		inst.Op == x86asm.XSAVEOPT && hasPrefix(inst, 0x66):
		return 1
	case inst.Op == x86asm.FBLD, inst.Op == x86asm.FBSTP,
		(inst.Op == x86asm.FLD || inst.Op == x86asm.FSTP) && inst.MemBytes != 4 && inst.MemBytes != 8:
		return 10 // the 80-bit forms, whose size x86asm leaves out
	case inst.Broadcast && inst.MemBytes == 0:
		return inst.DataSize / 8
	}
	return inst.MemBytes
}

// elementBytes is the element size a gather or scatter names: ps and a
// final d are 4 bytes, pd and a final q 8.
func elementBytes(name string) int {
	switch {
	case strings.HasSuffix(name, "PS"):
		return 4
	case strings.HasSuffix(name, "PD"):
		return 8
	case strings.HasSuffix(name, "D"):
		return 4
	}
	return 8
}

var sizeNames = map[int]string{1: "byte", 2: "word", 4: "dword", 8: "qword", 10: "tbyte", 16: "xmmword", 32: "ymmword", 64: "zmmword"}

// intelMem is LLVM's Intel printMemReference: segment, then
// [base + scale*index + disp] with the displacement left out when 0 with
// a base or index, subtracted when negative.
func intelMem(inst *x86asm.Inst, m x86asm.Mem) string {
	var s strings.Builder
	if seg := segment(inst, m); seg != 0 {
		s.WriteString(regName(seg) + ":")
	}
	s.WriteByte('[')
	disp := m.Disp
	if op := inst.Opcode >> 24; inst.AddrSize != 16 && (op < 0xa0 || op > 0xa3) {
		disp = int64(int32(disp)) // x86asm keeps a disp32 unsigned; the CPU sign-extends it
	}
	index := m.Index
	if index == 0 && m.Scale != 0 && (m.Scale != 1 || m.Base != 0 && !sibOnlyBase(m.Base)) {
		index = x86asm.RIP // stands for riz below, as in memText
	}
	plus := false
	if m.Base != 0 {
		s.WriteString(regName(m.Base))
		plus = true
	}
	if index != 0 {
		if plus {
			s.WriteString(" + ")
		}
		if m.Scale > 1 || m.Base == 0 {
			s.WriteString(strconv.Itoa(int(max(m.Scale, 1))) + "*")
		}
		s.WriteString(indexName(inst, index))
		plus = true
	}
	switch {
	case disp != 0 && plus && disp < 0:
		s.WriteString(" - " + strconv.FormatUint(uint64(-disp), 10))
	case disp != 0 && plus:
		s.WriteString(" + " + strconv.FormatInt(disp, 10))
	case disp != 0 || !plus:
		s.WriteString(strconv.FormatInt(disp, 10))
	}
	s.WriteByte(']')
	return s.String()
}

// indexName is an index register's name, riz or eiz for the zero index
// of a SIB byte.
func indexName(inst *x86asm.Inst, index x86asm.Reg) string {
	if index != x86asm.RIP {
		return regName(index)
	}
	if inst.AddrSize == 32 {
		return "eiz"
	}
	return "riz"
}
