package x86

// The text of an instruction as LLVM's AT&T printer (X86ATTInstPrinter)
// writes it, which llvm-profgen --show-disassembly-only prints. x86asm
// decodes the operands; the mnemonics, size suffixes and operand syntax
// are LLVM's: decimal immediates and displacements, branch targets as
// absolute hex addresses, ", " between operands.

import (
	"strconv"
	"strings"

	"golang.org/x/arch/x86/x86asm"
)

// Text returns the instruction at the start of b, at address pc, as
// llvm-profgen prints it after the address: "\tmnemonic\toperands", with
// "\tprefix\t" before for a rep, repne or lock prefix of the instruction,
// and "\t<unknown>" for bytes LLVM does not decode (Decode's ok false).
func Text(b []byte, pc uint64) string {
	n, _, ok := Decode(b)
	if !ok {
		return "\t<unknown>"
	}
	if t, ok := quirkText(b, n); ok {
		return t
	}
	inst, err := x86asm.Decode(b[:n], 64)
	if err != nil || inst.Len != n || inst.Op == 0 {
		return "\t" + hexBytes(b[:n])
	}
	return attText(&inst, b[:n], pc)
}

// hexBytes stands for an instruction this printer cannot render: its
// bytes, so that the line still shows what is there.
func hexBytes(b []byte) string {
	var s strings.Builder
	s.WriteString(".byte\t")
	for i, c := range b {
		if i > 0 {
			s.WriteString(", ")
		}
		s.WriteString("0x")
		s.WriteString(strconv.FormatUint(uint64(c), 16))
	}
	return s.String()
}

func attText(inst *x86asm.Inst, b []byte, pc uint64) string {
	fixVEXMem(inst, b)
	var s strings.Builder
	s.WriteString(prefixText(inst))
	s.WriteByte('\t')
	s.WriteString(mnemonic(inst))
	if ops := operands(inst, pc); len(ops) > 0 {
		s.WriteByte('\t')
		s.WriteString(strings.Join(ops, ", "))
	}
	return s.String()
}

// prefixText is LLVM's printInstFlags: "\tlock\t", "\trep\t", "\trepne\t"
// for prefixes that are not part of the opcode.
func prefixText(inst *x86asm.Inst) string {
	var lock, rep, repne bool
	for _, p := range legacyPrefixes(inst) {
		if p&x86asm.PrefixImplicit != 0 && !isStringOp(inst.Op) {
			continue
		}
		switch p & 0xff {
		case 0xf0:
			lock = true
		case 0xf3:
			rep, repne = true, false
		case 0xf2:
			repne, rep = true, false
		}
	}
	var s string
	if lock {
		s += "\tlock\t"
	}
	switch {
	case repne:
		s += "\trepne\t"
	case rep:
		s += "\trep\t"
	}
	return s
}

func isStringOp(op x86asm.Op) bool {
	switch op {
	case x86asm.MOVSB, x86asm.MOVSW, x86asm.MOVSD, x86asm.MOVSQ,
		x86asm.STOSB, x86asm.STOSW, x86asm.STOSD, x86asm.STOSQ,
		x86asm.LODSB, x86asm.LODSW, x86asm.LODSD, x86asm.LODSQ,
		x86asm.SCASB, x86asm.SCASW, x86asm.SCASD, x86asm.SCASQ,
		x86asm.CMPSB, x86asm.CMPSW, x86asm.CMPSD, x86asm.CMPSQ,
		x86asm.INSB, x86asm.INSW, x86asm.INSD, x86asm.OUTSB, x86asm.OUTSW, x86asm.OUTSD:
		return true
	}
	return false
}

// mnemonic is LLVM's name of the instruction, with the AT&T size suffix
// where LLVM writes one.
func mnemonic(inst *x86asm.Inst) string {
	op := inst.Op
	name := strings.TrimSuffix(strings.ToLower(op.String()), "_xmm")
	if m, ok := llvmNames[op]; ok {
		name = m
	}
	switch op {
	case x86asm.CALL:
		return "callq"
	case x86asm.JMP:
		if _, rel := inst.Args[0].(x86asm.Rel); rel {
			return "jmp"
		}
		return "jmpq"
	case x86asm.RET:
		return "retq"
	case x86asm.LRET:
		if hasREXW(inst) {
			return "lretq"
		}
		return "lretl"
	case x86asm.PUSH, x86asm.POP:
		if inst.DataSize == 16 {
			return name + "w"
		}
		return name + "q"
	case x86asm.MOVZX, x86asm.MOVSX:
		return name[:4] + suffix(argBytes(inst, inst.Args[1])) + suffix(argBytes(inst, inst.Args[0]))
	case x86asm.MOVSXD:
		return name
	case x86asm.IN:
		return name + suffix(argBytes(inst, inst.Args[0]))
	case x86asm.OUT:
		return name + suffix(argBytes(inst, inst.Args[1]))
	case x86asm.MOVHPS, x86asm.MOVHPD, x86asm.MOVLPS, x86asm.MOVLPD:
		_, r0 := inst.Args[0].(x86asm.Reg)
		_, r1 := inst.Args[1].(x86asm.Reg)
		if r0 && r1 { // 0F 16 and 0F 12 between registers
			if op == x86asm.MOVHPS || op == x86asm.MOVHPD {
				return "movlhps"
			}
			return "movhlps"
		}
	case x86asm.XLATB:
		inst.Args[0] = nil
		return name
	case x86asm.SYSRET, x86asm.SYSEXIT, x86asm.LCALL, x86asm.LJMP:
		if hasREXW(inst) {
			return name + "q"
		}
		return name + "l"
	case x86asm.LGDT, x86asm.LIDT, x86asm.SGDT, x86asm.SIDT:
		return name + "q"
	case x86asm.STR, x86asm.SLDT, x86asm.SMSW:
		return name + suffix(argBytes(inst, inst.Args[0]))
	case x86asm.LAR, x86asm.LSL:
		if r, ok := inst.Args[1].(x86asm.Reg); ok && gprBytes(r) > 2 {
			inst.Args[1] = x86asm.AX + (r-x86asm.EAX)%16 // the source is 16 bits
		}
		return name + suffix(argBytes(inst, inst.Args[0]))
	case x86asm.FSUB, x86asm.FSUBR, x86asm.FDIV, x86asm.FDIVR, x86asm.FSUBP, x86asm.FSUBRP, x86asm.FDIVP, x86asm.FDIVRP:
		if opc := inst.Opcode >> 24; (opc == 0xdc || opc == 0xde) && !hasMemArg(inst) {
			// AT&T's historic swap of the reversed forms, which LLVM keeps.
			return swappedX87[op]
		}
	case x86asm.NOP:
		if inst.Args[0] != nil {
			return name + suffix(inst.DataSize/8)
		}
		return name
	case x86asm.INT:
		if inst.Opcode>>24 == 0xcc {
			inst.Args[0] = nil
			return "int3"
		}
		return name
	case x86asm.CRC32:
		return name + suffix(argBytes(inst, inst.Args[1]))
	case x86asm.CLFLUSH, x86asm.XSAVEOPT:
		if hasPrefix(inst, 0x66) { // clflushopt, clwb: x86asm ignores the 66
			return map[x86asm.Op]string{x86asm.CLFLUSH: "clflushopt", x86asm.XSAVEOPT: "clwb"}[op]
		}
	case x86asm.MOV:
		if m := movabs(inst); m != "" {
			return m
		}
		if opc := inst.Opcode >> 24; (opc == 0x8c || opc == 0x8e) && (isMem(inst.Args[0]) || isMem(inst.Args[1])) {
			return "movw" // a segment register to or from memory is 16 bits
		}
		if isControlReg(inst.Args[0]) || isControlReg(inst.Args[1]) {
			return "movq"
		}
	case x86asm.CVTSI2SD, x86asm.CVTSI2SS, x86asm.VCVTSI2SD, x86asm.VCVTSI2SS:
		if isMem(inst.Args[len(argList(inst))-1]) {
			return name + suffix(inst.MemBytes)
		}
		return name
	}
	if m, ok := comparePredicate(inst, name); ok {
		return m
	}
	if m, ok := x87Name(inst, name); ok {
		return m
	}
	if sizedOps[op] || isCMOV(op) {
		return name + suffix(argBytes(inst, inst.Args[0]))
	}
	return name
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

func hasMemArg(inst *x86asm.Inst) bool {
	for _, a := range argList(inst) {
		if isMem(a) {
			return true
		}
	}
	return false
}

func isControlReg(a x86asm.Arg) bool {
	r, ok := a.(x86asm.Reg)
	return ok && (r >= x86asm.CR0 && r <= x86asm.CR15 || r >= x86asm.DR0 && r <= x86asm.DR15)
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

// legacyPrefixes are the instruction's prefixes before a VEX or EVEX
// prefix (x86asm lists the bytes of those too).
func legacyPrefixes(inst *x86asm.Inst) []x86asm.Prefix {
	for i, p := range inst.Prefix {
		if p == 0 || p.IsVEX() || p.IsEVEX() {
			return inst.Prefix[:i]
		}
	}
	return inst.Prefix[:]
}

func hasPrefix(inst *x86asm.Inst, b byte) bool {
	for _, p := range legacyPrefixes(inst) {
		if byte(p) == b {
			return true
		}
	}
	return false
}

func hasREXW(inst *x86asm.Inst) bool {
	for _, p := range legacyPrefixes(inst) {
		if p.IsREX() && p&x86asm.PrefixREXW != 0 {
			return true
		}
	}
	return false
}

// suffix is the AT&T suffix of an operand size in bytes.
func suffix(bytes int) string {
	switch bytes {
	case 1:
		return "b"
	case 2:
		return "w"
	case 4:
		return "l"
	case 8:
		return "q"
	}
	return ""
}

// argBytes is the size of an operand: a register's width, a memory
// operand's size, else the operand size.
func argBytes(inst *x86asm.Inst, a x86asm.Arg) int {
	switch a := a.(type) {
	case x86asm.Reg:
		if n := gprBytes(a); n > 0 {
			return n
		}
	case x86asm.Mem:
		if inst.MemBytes > 0 {
			return inst.MemBytes
		}
	}
	return inst.DataSize / 8
}

func gprBytes(r x86asm.Reg) int {
	switch {
	case r >= x86asm.AL && r <= x86asm.R15B:
		return 1
	case r >= x86asm.AX && r <= x86asm.R15W:
		return 2
	case r >= x86asm.EAX && r <= x86asm.R15L:
		return 4
	case r >= x86asm.RAX && r <= x86asm.R15:
		return 8
	}
	return 0
}

func isMem(a x86asm.Arg) bool {
	_, ok := a.(x86asm.Mem)
	return ok
}

// argList is the instruction's operands, in Intel order.
func argList(inst *x86asm.Inst) []x86asm.Arg {
	n := 0
	for n < len(inst.Args) && inst.Args[n] != nil {
		n++
	}
	return inst.Args[:n]
}

// operands formats the operands in AT&T order (Intel's reversed), with
// AVX-512 masking after the destination as LLVM writes it.
func operands(inst *x86asm.Inst, pc uint64) []string {
	args := argList(inst)
	if (inst.Opcode>>24)&^1 == 0xd0 && len(args) == 2 && args[1] == x86asm.Imm(1) {
		args = args[:1] // shift by one: LLVM writes no count
	}
	if inst.Op == x86asm.ENTER && len(args) == 2 {
		// LLVM keeps Intel's order and signs both: imm16, imm8.
		return []string{"$" + strconv.Itoa(int(int16(args[0].(x86asm.Imm)))), "$" + strconv.Itoa(int(int8(args[1].(x86asm.Imm))))}
	}
	var out []string
	var mask string
	for i, a := range args {
		if r, ok := a.(x86asm.Reg); ok && i == 1 && r >= x86asm.K0 && r <= x86asm.K7 && !strings.HasPrefix(inst.Op.String(), "K") {
			if r != x86asm.K0 {
				mask = " {%" + regName(r) + "}"
			}
			if inst.Zeroing {
				mask += " {z}"
			}
			continue
		}
		s := argText(inst, pc, a)
		if isMem(a) && inst.Broadcast {
			s += broadcast(inst)
		}
		out = append(out, s)
	}
	if len(out) > 0 && mask != "" {
		out[0] += mask
	}
	if !xchgRegs(inst) { // LLVM prints xchg between registers in Intel order
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	x87RegNames(inst, args, out)
	if (inst.Op == x86asm.CALL || inst.Op == x86asm.JMP || inst.Op == x86asm.LCALL || inst.Op == x86asm.LJMP) && len(out) == 1 && !isRel(args[0]) {
		out[0] = "*" + out[0]
	}
	return out
}

// xchgRegs reports xchg between two registers.
func xchgRegs(inst *x86asm.Inst) bool {
	if inst.Op != x86asm.XCHG {
		return false
	}
	_, r0 := inst.Args[0].(x86asm.Reg)
	_, r1 := inst.Args[1].(x86asm.Reg)
	return r0 && r1
}

// x87RegNames writes the stack register the ModRM byte encodes as
// %st(i), %st(0) included, as LLVM does; the implicit top stays %st. out
// is in AT&T order.
func x87RegNames(inst *x86asm.Inst, args []x86asm.Arg, out []string) {
	opc := inst.Opcode >> 24
	if opc < 0xd8 || opc > 0xdf || hasMemArg(inst) {
		return
	}
	encoded := -1 // Intel index of the encoded operand
	switch {
	case len(args) == 1:
		encoded = 0
	case len(args) == 2 && (opc == 0xdc || opc == 0xde):
		encoded = 0
	case len(args) == 2:
		encoded = 1
	}
	if encoded < 0 || args[encoded] != x86asm.F0 {
		return
	}
	out[len(out)-1-encoded] = "%st(0)"
}

func isRel(a x86asm.Arg) bool {
	_, ok := a.(x86asm.Rel)
	return ok
}

// broadcast is the {1toN} of an EVEX memory operand broadcast to the
// destination's width.
func broadcast(inst *x86asm.Inst) string {
	dst, ok := inst.Args[0].(x86asm.Reg)
	if !ok || inst.MemBytes == 0 {
		return ""
	}
	width := 0
	switch {
	case dst >= x86asm.X0 && dst <= x86asm.X31:
		width = 16
	case dst >= x86asm.Y0 && dst <= x86asm.Y31:
		width = 32
	case dst >= x86asm.Z0 && dst <= x86asm.Z31:
		width = 64
	}
	if width == 0 {
		return ""
	}
	return "{1to" + strconv.Itoa(width/inst.MemBytes) + "}"
}

func argText(inst *x86asm.Inst, pc uint64, a x86asm.Arg) string {
	switch a := a.(type) {
	case x86asm.Reg:
		return "%" + regName(a)
	case x86asm.Imm:
		return "$" + immText(inst, a)
	case x86asm.Rel:
		return "0x" + strconv.FormatUint(pc+uint64(inst.Len)+uint64(int64(a)), 16)
	case x86asm.Mem:
		return memText(inst, a)
	}
	return "?"
}

// memText is LLVM's printMemReference: segment, displacement in decimal
// (left out when 0 with a base or index), (base,index,scale) with the
// scale left out when 1.
func memText(inst *x86asm.Inst, m x86asm.Mem) string {
	var s strings.Builder
	if seg := segment(inst, m); seg != 0 {
		s.WriteString("%" + regName(seg) + ":")
	}
	disp := m.Disp
	if op := inst.Opcode >> 24; inst.AddrSize != 16 && (op < 0xa0 || op > 0xa3) {
		disp = int64(int32(disp)) // x86asm keeps a disp32 unsigned; the CPU sign-extends it
	}
	if disp != 0 || m.Base == 0 && (m.Index == 0 && (m.Scale == 0 || m.Scale == 1)) {
		s.WriteString(strconv.FormatInt(disp, 10))
	}
	index := m.Index
	if index == 0 && m.Scale != 0 && (m.Scale != 1 || m.Base != 0 && !sibOnlyBase(m.Base)) {
		// A SIB byte without an index where ModRM alone would do: LLVM
		// names the zero index.
		index = x86asm.RIP // stands for %riz below
	}
	if m.Base == 0 && index == 0 {
		return s.String()
	}
	s.WriteByte('(')
	if m.Base != 0 {
		s.WriteString("%" + regName(m.Base))
	}
	if index != 0 {
		name := regName(index)
		if index == x86asm.RIP {
			name = "riz"
			if inst.AddrSize == 32 {
				name = "eiz"
			}
		}
		s.WriteString(",%" + name)
		if m.Scale > 1 {
			s.WriteString("," + strconv.Itoa(int(m.Scale)))
		}
	}
	s.WriteByte(')')
	return s.String()
}

// sibOnlyBase reports the base registers that need a SIB byte.
func sibOnlyBase(r x86asm.Reg) bool {
	return r == x86asm.RSP || r == x86asm.R12 || r == x86asm.ESP || r == x86asm.R12L
}

// segment is the segment register a memory operand names: its own, or
// the last segment-override prefix.
func segment(inst *x86asm.Inst, m x86asm.Mem) x86asm.Reg {
	if m.Segment == x86asm.DS && isStringOp(inst.Op) && !hasPrefix(inst, 0x3e) {
		return 0 // the string source's default segment, which LLVM does not print
	}
	if m.Segment != 0 {
		return m.Segment
	}
	var seg x86asm.Reg
	for _, p := range legacyPrefixes(inst) {
		switch p & 0xff {
		case 0x26:
			seg = x86asm.ES
		case 0x2e:
			seg = x86asm.CS
		case 0x36:
			seg = x86asm.SS
		case 0x3e:
			seg = x86asm.DS
		case 0x64:
			seg = x86asm.FS
		case 0x65:
			seg = x86asm.GS
		}
	}
	return seg
}

// regName is the AT&T name of a register, without the %.
func regName(r x86asm.Reg) string {
	switch {
	case r >= x86asm.R8B && r <= x86asm.R15B:
		return "r" + strconv.Itoa(int(r-x86asm.R8B)+8) + "b"
	case r >= x86asm.R8W && r <= x86asm.R15W:
		return "r" + strconv.Itoa(int(r-x86asm.R8W)+8) + "w"
	case r >= x86asm.R8L && r <= x86asm.R15L:
		return "r" + strconv.Itoa(int(r-x86asm.R8L)+8) + "d"
	case r >= x86asm.X0 && r <= x86asm.X31:
		return "xmm" + strconv.Itoa(int(r-x86asm.X0))
	case r >= x86asm.Y0 && r <= x86asm.Y31:
		return "ymm" + strconv.Itoa(int(r-x86asm.Y0))
	case r >= x86asm.Z0 && r <= x86asm.Z31:
		return "zmm" + strconv.Itoa(int(r-x86asm.Z0))
	case r >= x86asm.M0 && r <= x86asm.M7:
		return "mm" + strconv.Itoa(int(r-x86asm.M0))
	case r >= x86asm.F0 && r <= x86asm.F7:
		if r == x86asm.F0 {
			return "st"
		}
		return "st(" + strconv.Itoa(int(r-x86asm.F0)) + ")"
	}
	switch r {
	case x86asm.SPB:
		return "spl"
	case x86asm.BPB:
		return "bpl"
	case x86asm.SIB:
		return "sil"
	case x86asm.DIB:
		return "dil"
	}
	return strings.ToLower(r.String())
}

// immText is an immediate as LLVM prints it: signed, except a full-size
// immediate (imm16 or imm32, not a sign-extended imm8) of a 16- or 32-bit
// operation, which LLVM's decoder leaves unsigned at the operand size.
func immText(inst *x86asm.Inst, imm x86asm.Imm) string {
	switch inst.Op {
	case x86asm.RET, x86asm.LRET:
		return strconv.FormatInt(int64(int16(imm)), 10)
	case x86asm.SHL, x86asm.SHR, x86asm.SAR, x86asm.ROL, x86asm.ROR, x86asm.RCL, x86asm.RCR:
		return strconv.FormatUint(uint64(uint8(imm)), 10) // a shift count is unsigned
	}
	if sizedOps[inst.Op] && argBytes(inst, inst.Args[0]) == 1 {
		return strconv.FormatInt(int64(int8(imm)), 10)
	}
	if fullSizeImm(inst.Opcode >> 24) {
		switch inst.DataSize {
		case 16:
			return strconv.FormatUint(uint64(uint16(imm)), 10)
		case 32:
			return strconv.FormatUint(uint64(uint32(imm)), 10)
		}
	}
	return strconv.FormatInt(int64(imm), 10)
}

// fullSizeImm reports whether a one-byte-map opcode takes an immediate of
// the operand size (Intel's iz and iv).
func fullSizeImm(op uint32) bool {
	switch {
	case op < 0x40 && op&7 == 5, op == 0x69, op == 0x81, op == 0xa9,
		op >= 0xb8 && op <= 0xbf, op == 0xc7, op == 0xf7:
		return true
	}
	return false
}

// fixVEXMem corrects x86asm's reading of a VEX or EVEX memory operand
// addressed by ModRM mod 0, r/m 5: RIP-relative in 64-bit mode, where
// x86asm leaves out the base.
func fixVEXMem(inst *x86asm.Inst, b []byte) {
	i := 0
	for i < len(b) && isLegacyPrefix(b[i]) {
		i++
	}
	if i >= len(b) {
		return
	}
	switch b[i] {
	case 0xc5:
		i += 3
	case 0xc4:
		i += 4
	case 0x62:
		i += 5
	default:
		return
	}
	if i >= len(b) || b[i]>>6 != 0 || b[i]&7 != 5 {
		return
	}
	for j, a := range inst.Args {
		if m, ok := a.(x86asm.Mem); ok && m.Base == 0 && m.Index == 0 {
			m.Base = x86asm.RIP
			inst.Args[j] = m
		}
	}
}

// quirkText renders the instructions Decode sizes itself because x86asm
// gets them wrong (quirks.go): n is the instruction's length. ok is false
// for the others.
func quirkText(b []byte, n int) (string, bool) {
	if t, ok := f3Text(b[:n]); ok {
		return t, true
	}
	if t, ok := adcxText(b[:n]); ok {
		return t, true
	}
	if prefixOnlyInst(b) == n {
		switch b[n-1] {
		case 0xf0:
			return "\tlock", true
		case 0xf2:
			return "\txacquire", true
		case 0xf3:
			return "\txrelease", true
		}
	}
	if cetHintNop(b) == n {
		return cetText(b), true
	}
	if vzero(b) == n {
		if (b[0] == 0xc5 && b[1]&4 != 0) || (b[0] == 0xc4 && b[2]&4 != 0) {
			return "\tvzeroall", true
		}
		return "\tvzeroupper", true
	}
	return "", false
}

// cetText names F3 0F 1E: endbr64 (FA), endbr32 (FB), rdsspd/q (mod 3,
// reg 1), else a hint nop.
func cetText(b []byte) string {
	i := 0
	for b[i] != 0x0f {
		i++
	}
	modrm := b[i+2]
	switch {
	case modrm == 0xfa:
		return "\tendbr64"
	case modrm == 0xfb:
		return "\tendbr32"
	case modrm>>6 == 3 && modrm>>3&7 == 1:
		if b[i-1]&0xf8 == 0x48 {
			return "\trdsspq\t%" + regName(x86asm.RAX+x86asm.Reg(modrm&7|(b[i-1]&1)<<3))
		}
		return "\trdsspd\t%" + regName(x86asm.EAX+x86asm.Reg(modrm&7))
	}
	return "\tnop" // the reserved hint NOPs; LLVM prints them as nopl with the operand
}

// f3Text names the F3 0F instructions x86asm does not know: the CET
// shadow-stack ones, ptwrite and rdpid.
func f3Text(b []byte) (string, bool) {
	if len(b) < 4 || b[0] != 0xf3 {
		return "", false
	}
	rex := byte(0)
	i := 1
	if b[i]&0xf0 == 0x40 {
		rex, i = b[i], i+1
	}
	if len(b) != i+3 || b[i] != 0x0f {
		return "", false
	}
	op, modrm := b[i+1], b[i+2]
	reg := func() string {
		r := x86asm.Reg(modrm&7) | x86asm.Reg(rex&1)<<3
		if rex&8 != 0 {
			return "%" + regName(x86asm.RAX+r)
		}
		return "%" + regName(x86asm.EAX+r)
	}
	w := map[bool]string{true: "q", false: "l"}[rex&8 != 0]
	switch {
	case op == 0x01 && modrm == 0xe8 && rex == 0:
		return "\tsetssbsy", true
	case op == 0x01 && modrm == 0xea && rex == 0:
		return "\tsaveprevssp", true
	case op == 0xc7 && modrm>>3 == 0x1f:
		return "\trdpid\t%" + regName(x86asm.RAX+(x86asm.Reg(modrm&7)|x86asm.Reg(rex&1)<<3)), true
	case op == 0xae && modrm>>3 == 0x1d:
		return "\tincssp" + w + "\t" + reg(), true
	case op == 0xae && modrm>>3 == 0x1c:
		return "\tptwrite" + w + "\t" + reg(), true
	}
	return "", false
}

// adcxText prints adcx (66 0F 38 F6 /r) and adox (F3 0F 38 F6 /r), which
// x86asm does not know: the operands are those of add r, r/m (03 /r)
// with the same REX and ModRM.
func adcxText(b []byte) (string, bool) {
	if len(b) < 5 || b[0] != 0x66 && b[0] != 0xf3 {
		return "", false
	}
	i := 1
	var rex []byte
	if b[i]&0xf0 == 0x40 {
		rex, i = b[i:i+1], i+1
	}
	if i+3 > len(b) || b[i] != 0x0f || b[i+1] != 0x38 || b[i+2] != 0xf6 {
		return "", false
	}
	add := append(append(append([]byte{}, rex...), 0x03), b[i+3:]...)
	inst, err := x86asm.Decode(add, 64)
	if err != nil || inst.Len != len(add) || inst.Op != x86asm.ADD {
		return "", false
	}
	name := map[byte]string{0x66: "adcx", 0xf3: "adox"}[b[0]]
	inst.Len = len(b)
	return "\t" + name + suffix(argBytes(&inst, inst.Args[0])) + "\t" + strings.Join(operands(&inst, 0), ", "), true
}
