package binary

import (
	"golang.org/x/arch/x86/x86asm"
)

// Kind is what an instruction does to control flow.
type Kind uint8

const (
	Other        Kind = iota // no control transfer
	Call                     // direct or indirect call
	Return                   // ret, ret imm16, lret, iret
	Jump                     // direct unconditional jump
	IndirectJump             // jmp through a register or memory
	CondBranch               // jcc, jrcxz, loop*, xbegin
)

var kindNames = [...]string{"other", "call", "return", "jump", "indirect-jump", "cond-branch"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// IsUncondBranch reports whether llvm-profgen counts the kind as an
// unconditional branch when it checks that a range is a valid fall-through
// (UncondBranchAddrSet): calls, returns and direct jumps. Indirect jumps are
// not (LLVM's MCInstrDesc::isUnconditionalBranch excludes indirect branches).
func (k Kind) IsUncondBranch() bool { return k == Call || k == Return || k == Jump }

// maxInstLen is the architectural limit of an x86 instruction.
const maxInstLen = 15

// decodeInst decodes the instruction at the start of b the way LLVM's x86
// disassembler (and so llvm-profgen) splits instructions. ok is false for
// bytes LLVM does not decode; size is then the number of bytes to skip.
func decodeInst(b []byte) (size int, kind Kind, ok bool) {
	if n, kind, ok := fastDecode(b); ok {
		return n, kind, true
	}
	return decodeInstSlow(b)
}

// decodeInstSlow is decodeInst without the fast path: LLVM's special
// cases, then x86asm.
func decodeInstSlow(b []byte) (size int, kind Kind, ok bool) {
	if len(b) == 0 {
		return 1, Other, false
	}
	if n := prefixOnlyInst(b); n > 0 {
		return n, Other, true
	}
	if n := cetHintNop(b); n > 0 {
		return n, Other, true
	}
	if n := vzero(b); n > 0 {
		return n, Other, true
	}
	if n := xop(b); n > 0 {
		return n, Other, true
	}
	if n, kind := rex2(b); n > 0 {
		return n, kind, true
	}
	if len(b) >= 2 && b[0]&0xf0 == 0x40 && (isLegacyPrefix(b[1]) || b[1]&0xf0 == 0x40) {
		return 2, Other, true // a REX before a prefix: LLVM makes one instruction of the two
	}
	if len(b) >= 2 && b[0] == 0x0f && b[1] == 0xff {
		return 2, Other, false // ud0: LLVM 19 gives up after the two opcode bytes
	}
	inst, err := x86asm.Decode(b, 64)
	if err == nil && inst.Len > 0 && inst.Op != 0 {
		return inst.Len, kindOf(&inst), true
	}
	// x86asm failed, or "decoded" an instruction it does not know as a
	// 1-byte prefix (setssbsy, ptwrite, rdpid, ...). Try what LLVM knows.
	if n := unknownWithMandatoryPrefix(b); n > 0 {
		return n, Other, true
	}
	if n := llvmOnly(b); n > 0 {
		return n, Other, true
	}
	if n := vex(b); n > 0 {
		return n, Other, true
	}
	if n, kind := afterRedundantPrefixes(b); n > 0 {
		return n, kind, true
	}
	return 1, Other, false
}

// afterRedundantPrefixes decodes an instruction preceded by address-size or
// segment prefixes that x86asm refuses, for example before a VEX
// instruction (assemblers pad code with them); LLVM accepts them.
func afterRedundantPrefixes(b []byte) (int, Kind) {
	k := 0
	for k < len(b) && k < maxInstLen && isRedundantPrefix(b[k]) {
		k++
	}
	if k == 0 || k >= len(b) {
		return 0, Other
	}
	n, kind, ok := decodeInstSlow(b[k:])
	if !ok || k+n > maxInstLen {
		return 0, Other
	}
	return k + n, kind
}

func isRedundantPrefix(c byte) bool {
	switch c {
	case 0x67, 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65:
		return true
	}
	return false
}

// llvmOnly sizes instructions LLVM decodes and x86asm does not: rdrand and
// rdseed with a REX prefix, and VIA PadLock (xstore, xcrypt*, montmul,
// xsha*), optionally rep-prefixed. 0 if b is none of them.
func llvmOnly(b []byte) int {
	i := 0
	if i < len(b) && b[i] == 0xf3 {
		i++
	}
	if i < len(b) && b[i]&0xf0 == 0x40 {
		i++
	}
	if i+2 >= len(b) || b[i] != 0x0f {
		return 0
	}
	op, modrm := b[i+1], b[i+2]
	switch {
	case op == 0xc7 && modrm>>6 == 3 && modrm>>3&7 >= 6: // rdrand, rdseed
		return i + 3
	case (op == 0xa6 || op == 0xa7) && modrm>>6 == 3: // PadLock
		return i + 3
	}
	return 0
}

// unknownWithMandatoryPrefix sizes an F2/F3/66-prefixed 0F-map instruction
// that x86asm does not know (setssbsy, ptwrite, rdpid, adcx, adox, ...):
// the prefix, then what x86asm makes of the rest, or else the length of an
// opcode in the 0F, 0F 38 or 0F 3A map with a ModRM operand (and the 0F 3A
// map's imm8). None of these are branches. 0 if b is no such instruction.
func unknownWithMandatoryPrefix(b []byte) int {
	if len(b) < 4 || (b[0] != 0xf2 && b[0] != 0xf3 && b[0] != 0x66) {
		return 0
	}
	if rest, err := x86asm.Decode(b[1:], 64); err == nil && rest.Op != 0 && rest.Len > 0 {
		if rest.Len >= maxInstLen {
			return 0
		}
		return 1 + rest.Len
	}
	i := 1
	for i < len(b) && i < 4 && isLegacyPrefix(b[i]) && b[i] != 0xf0 {
		i++ // more prefixes, as in 66 66 REX 0F 38 F6 (adcx padded)
	}
	if i >= len(b) {
		return 0
	}
	if b[i]&0xf0 == 0x40 { // REX
		i++
	}
	if i+2 >= len(b) || b[i] != 0x0f {
		return 0
	}
	i++
	imm := 0
	switch b[i] {
	case 0x0f:
		return 0
	case 0x38:
		i++
	case 0x3a:
		i, imm = i+1, 1
	}
	if i+1 >= len(b) {
		return 0
	}
	n := modRMLen(b[i+1:])
	if n == 0 || i+1+n+imm > min(len(b), maxInstLen) {
		return 0
	}
	return i + 1 + n + imm
}

// prefixOnlyInst returns the length of a prefix LLVM's decoder turns into
// an instruction of its own, 0 if none (X86DisassemblerDecoder readPrefixes):
// a LOCK as the first byte, and an F2/F3 read as xacquire/xrelease (before
// a LOCK, an xchg, or for F3 a mov to memory), ending at that prefix.
func prefixOnlyInst(b []byte) int {
	if b[0] == 0xf0 {
		return 1
	}
	for i := 0; i < len(b) && i < maxInstLen; i++ {
		switch c := b[i]; c {
		case 0xf2, 0xf3:
			if i+1 < len(b) && isHLEPrefixed(c, b[i+1]) {
				return i + 1
			}
		case 0xf0, 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67:
		default:
			return 0
		}
	}
	return 0
}

func isHLEPrefixed(prefix, next byte) bool {
	if next == 0xf0 || next&0xfe == 0x86 || next&0xf8 == 0x90 {
		return !(prefix == 0xf3 && next == 0x90) // f3 90 is pause
	}
	return prefix == 0xf3 && (next == 0x88 || next == 0x89 || next == 0xc6 || next == 0xc7)
}

// cetHintNop handles F3 0F 1E /r (endbr64, endbr32, rdssp and the reserved
// hint NOPs), which x86asm decodes as a one-byte "rep" (golang/go#35865).
// It returns the instruction length, 0 if b is not such an instruction.
func cetHintNop(b []byte) int {
	i := 0
	for i < len(b) && i < maxInstLen && isLegacyPrefix(b[i]) && b[i] != 0xf3 {
		i++
	}
	if i >= len(b) || b[i] != 0xf3 {
		return 0
	}
	i++
	if i < len(b) && isLegacyPrefix(b[i]) {
		return 0
	}
	if i < len(b) && b[i]&0xf0 == 0x40 { // REX
		i++
	}
	if i+2 >= len(b) || b[i] != 0x0f || b[i+1] != 0x1e {
		return 0
	}
	n := modRMLen(b[i+2:])
	if n == 0 || i+2+n > maxInstLen {
		return 0
	}
	return i + 2 + n
}

func isLegacyPrefix(c byte) bool {
	switch c {
	case 0xf0, 0xf2, 0xf3, 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67:
		return true
	}
	return false
}

// modRMLen is the length of a ModRM byte with its SIB and displacement in
// 64-bit addressing, 0 if b is too short.
func modRMLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	mod, rm := b[0]>>6, b[0]&7
	n := 1
	if mod != 3 && rm == 4 {
		if len(b) < 2 {
			return 0
		}
		if mod == 0 && b[1]&7 == 5 {
			n += 4
		}
		n++
	}
	switch {
	case mod == 1:
		n++
	case mod == 2, mod == 0 && rm == 5:
		n += 4
	}
	if n > len(b) {
		return 0
	}
	return n
}

func kindOf(inst *x86asm.Inst) Kind {
	switch inst.Op {
	case x86asm.CALL, x86asm.LCALL:
		return Call
	case x86asm.RET, x86asm.LRET, x86asm.IRET, x86asm.IRETD, x86asm.IRETQ:
		return Return
	case x86asm.JMP:
		if _, rel := inst.Args[0].(x86asm.Rel); rel {
			return Jump
		}
		return IndirectJump
	case x86asm.LJMP:
		return IndirectJump
	case x86asm.JA, x86asm.JAE, x86asm.JB, x86asm.JBE, x86asm.JE, x86asm.JG, x86asm.JGE,
		x86asm.JL, x86asm.JLE, x86asm.JNE, x86asm.JNO, x86asm.JNP, x86asm.JNS, x86asm.JO,
		x86asm.JP, x86asm.JS, x86asm.JCXZ, x86asm.JECXZ, x86asm.JRCXZ,
		x86asm.LOOP, x86asm.LOOPE, x86asm.LOOPNE, x86asm.XBEGIN:
		return CondBranch
	}
	return Other
}

// vzero sizes vzeroupper and vzeroall (VEX 0F 77), which x86asm misreads.
func vzero(b []byte) int {
	switch {
	case len(b) >= 3 && b[0] == 0xc5 && b[2] == 0x77:
		return 3
	case len(b) >= 4 && b[0] == 0xc4 && b[1]&0x1f == 1 && b[3] == 0x77:
		return 4
	}
	return 0
}

// xop sizes an AMD XOP instruction (8F, with a map number in the second
// byte: 8 with imm8, 9 without, 0Ah with imm32), which x86asm reads as pop.
func xop(b []byte) int {
	if len(b) < 5 || b[0] != 0x8f || b[1]&0x38 == 0 {
		return 0
	}
	imm := 0
	switch b[1] & 0x1f {
	case 8:
		imm = 1
	case 9:
	case 0xa:
		imm = 4
	default:
		return 0
	}
	n := modRMLen(b[4:])
	if n == 0 || 4+n+imm > min(len(b), maxInstLen) {
		return 0
	}
	return 4 + n + imm
}

// rex2 decodes an instruction with an APX REX2 prefix (D5, payload), which
// LLVM 19 knows and x86asm does not: the rest is decoded with the
// equivalent REX (and 0F escape when REX2.M0 is set). n is 0 if b is none.
func rex2(b []byte) (n int, kind Kind) {
	if len(b) < 3 || b[0] != 0xd5 {
		return 0, Other
	}
	m0, w := int(b[1]>>7), b[1]>>3&1
	buf := make([]byte, 0, 2+maxInstLen)
	buf = append(buf, 0x40|w<<3)
	if m0 == 1 {
		buf = append(buf, 0x0f)
	}
	buf = append(buf, b[2:min(len(b), maxInstLen)]...)
	inst, err := x86asm.Decode(buf, 64)
	if err != nil || inst.Op == 0 || inst.Len < 2+m0 || inst.Len-1-m0+2 > maxInstLen {
		return 0, Other
	}
	return inst.Len - 1 - m0 + 2, kindOf(&inst)
}

// vex sizes a VEX instruction x86asm rejects (for example a scalar one with
// VEX.L set, which LLVM accepts as "L ignored"): prefix, opcode, ModRM
// operand, and an imm8 in the 0F3A map and for the 0F-map opcodes that
// take one. None is a branch. 0 if b is not such an instruction.
func vex(b []byte) int {
	var i, vmap int
	switch {
	case len(b) >= 4 && b[0] == 0xc5:
		i, vmap = 2, 1
	case len(b) >= 5 && b[0] == 0xc4:
		i, vmap = 3, int(b[1]&0x1f)
	default:
		return 0
	}
	op := b[i]
	imm := 0
	switch vmap {
	case 1:
		if op >= 0x70 && op <= 0x73 || op >= 0xc2 && op <= 0xc6 {
			imm = 1
		}
	case 2:
	case 3:
		imm = 1
	default:
		return 0
	}
	n := modRMLen(b[i+1:])
	if n == 0 || i+1+n+imm > min(len(b), maxInstLen) {
		return 0
	}
	return i + 1 + n + imm
}
