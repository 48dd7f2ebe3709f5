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
// llvm-profgen prints it after the address in AT&T syntax (its default):
// "\tmnemonic\toperands", with "\tprefix\t" before for a rep, repne or
// lock prefix of the instruction, and "\t<unknown>" for bytes LLVM does
// not decode (Decode's ok false).
func Text(b []byte, pc uint64) string { return render(b, pc, att) }

// A syntax prints decoded instructions: AT&T or Intel.
type syntax struct {
	// mnemonic is the instruction's name.
	mnemonic func(inst *x86asm.Inst) string
	// operands are the operand texts, in the syntax's order.
	operands func(inst *x86asm.Inst, pc uint64) []string
	// reg is a register's name.
	reg func(r x86asm.Reg) string
	// sized is a mnemonic with the size suffix of an operand of that many
	// bytes, where the syntax writes one.
	sized func(name string, bytes int) string
}

var att = syntax{
	mnemonic: mnemonic,
	operands: operands,
	reg:      func(r x86asm.Reg) string { return "%" + regName(r) },
	sized:    func(name string, bytes int) string { return name + suffix(bytes) },
}

// render is the text of the instruction at the start of b in syntax s.
func render(b []byte, pc uint64, s syntax) string {
	n, _, ok := Decode(b)
	if !ok {
		return "\t<unknown>"
	}
	if t, ok := s.quirkText(b, n); ok {
		return t
	}
	inst, err := x86asm.Decode(b[:n], 64)
	if err != nil || inst.Len != n || inst.Op == 0 {
		return "\t" + hexBytes(b[:n])
	}
	return s.text(&inst, b[:n], pc)
}

// text is the text of an instruction x86asm decodes: its prefixes,
// mnemonic and operands in the syntax.
func (syn syntax) text(inst *x86asm.Inst, b []byte, pc uint64) string {
	fixVEXMem(inst, b)
	var s strings.Builder
	s.WriteString(prefixText(inst))
	s.WriteByte('\t')
	s.WriteString(syn.mnemonic(inst))
	if ops := syn.operands(inst, pc); len(ops) > 0 {
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
	out, args, enter := orderedOperands(inst, pc, attSyntax)
	if enter {
		return out // LLVM keeps Intel's order: imm16, imm8
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

// operandSyntax is what tells AT&T operands from Intel ones.
type operandSyntax struct {
	imm, reg string // the prefixes of an immediate and a register
	arg      func(inst *x86asm.Inst, pc uint64, a x86asm.Arg) string
}

var attSyntax = operandSyntax{imm: "$", reg: "%", arg: argText}

// orderedOperands formats the operands in Intel order, with AVX-512
// masking after the destination as LLVM writes it, and the args they
// are of. enter's two immediates, signed, are in the order both syntaxes
// print (enter is true).
func orderedOperands(inst *x86asm.Inst, pc uint64, syn operandSyntax) (out []string, args []x86asm.Arg, enter bool) {
	args = argList(inst)
	if (inst.Opcode>>24)&^1 == 0xd0 && len(args) == 2 && args[1] == x86asm.Imm(1) {
		args = args[:1] // shift by one: LLVM writes no count
	}
	if inst.Op == x86asm.ENTER && len(args) == 2 {
		return []string{syn.imm + strconv.Itoa(int(int16(args[0].(x86asm.Imm)))), syn.imm + strconv.Itoa(int(int8(args[1].(x86asm.Imm))))}, args, true
	}
	var mask string
	for i, a := range args {
		if r, ok := a.(x86asm.Reg); ok && i == 1 && r >= x86asm.K0 && r <= x86asm.K7 && !strings.HasPrefix(inst.Op.String(), "K") {
			mask = maskText(inst, r, syn.reg)
			continue
		}
		s := syn.arg(inst, pc, a)
		if isMem(a) && inst.Broadcast {
			s += broadcast(inst)
		}
		out = append(out, s)
	}
	if len(out) > 0 && mask != "" {
		out[0] += mask
	}
	return out, args, false
}

// maskText is an AVX-512 mask register k, with {z} for zeroing.
func maskText(inst *x86asm.Inst, k x86asm.Reg, regPrefix string) string {
	var mask string
	if k != x86asm.K0 {
		mask = " {" + regPrefix + regName(k) + "}"
	}
	if inst.Zeroing {
		mask += " {z}"
	}
	return mask
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
		s.WriteString(",%" + indexName(inst, index))
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
