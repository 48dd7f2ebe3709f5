package x86

// Instructions LLVM's disassembler decodes that x86asm gets wrong or
// refuses, each sized the way LLVM sizes it. Found by comparing whole
// binaries with llvm-profgen-19 --show-disassembly-only (reference_test.go).

import (
	"golang.org/x/arch/x86/x86asm"

	"github.com/profgen/profgen/internal/binary/insn"
)

// afterRedundantPrefixes decodes an instruction preceded by address-size or
// segment prefixes that x86asm refuses, for example before a VEX
// instruction (assemblers pad code with them); LLVM accepts them.
func afterRedundantPrefixes(b []byte) (int, insn.Kind) {
	k := 0
	for k < len(b) && k < MaxInstLen && isRedundantPrefix(b[k]) {
		k++
	}
	if k == 0 || k >= len(b) {
		return 0, insn.Other
	}
	n, kind, ok := decodeInstSlow(b[k:])
	if !ok || k+n > MaxInstLen {
		return 0, insn.Other
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
		if rest.Len >= MaxInstLen {
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
	if n == 0 || i+1+n+imm > min(len(b), MaxInstLen) {
		return 0
	}
	return i + 1 + n + imm
}

// cetHintNop handles F3 0F 1E /r (endbr64, endbr32, rdssp and the reserved
// hint NOPs), which x86asm decodes as a one-byte "rep" (golang/go#35865).
// It returns the instruction length, 0 if b is not such an instruction.
func cetHintNop(b []byte) int {
	i := 0
	for i < len(b) && i < MaxInstLen && isLegacyPrefix(b[i]) && b[i] != 0xf3 {
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
	if n == 0 || i+2+n > MaxInstLen {
		return 0
	}
	return i + 2 + n
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
	if n == 0 || 4+n+imm > min(len(b), MaxInstLen) {
		return 0
	}
	return 4 + n + imm
}

// rex2 decodes an instruction with an APX REX2 prefix (D5, payload), which
// LLVM 19 knows and x86asm does not: the rest is decoded with the
// equivalent REX (and 0F escape when REX2.M0 is set). n is 0 if b is none.
func rex2(b []byte) (n int, kind insn.Kind) {
	if len(b) < 3 || b[0] != 0xd5 {
		return 0, insn.Other
	}
	m0, w := int(b[1]>>7), b[1]>>3&1
	buf := make([]byte, 0, 2+MaxInstLen)
	buf = append(buf, 0x40|w<<3)
	if m0 == 1 {
		buf = append(buf, 0x0f)
	}
	buf = append(buf, b[2:min(len(b), MaxInstLen)]...)
	inst, err := x86asm.Decode(buf, 64)
	if err != nil || inst.Op == 0 || inst.Len < 2+m0 || inst.Len-1-m0+2 > MaxInstLen {
		return 0, insn.Other
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
	if n == 0 || i+1+n+imm > min(len(b), MaxInstLen) {
		return 0
	}
	return i + 1 + n + imm
}

// invalidLen is how many bytes LLVM skips over an encoding it cannot
// decode: what it read before giving up, that is the prefixes, the opcode
// (or VEX, EVEX, XOP, REX2 prefix with the opcode map) and, for opcodes
// with a ModRM operand, that operand. This keeps the walk through data
// embedded in text in step with llvm-profgen's.
func invalidLen(b []byte) int {
	i := 0
	for i < len(b) && i < MaxInstLen-1 && isLegacyPrefix(b[i]) {
		i++
	}
	if i < len(b) && b[i]&0xf0 == 0x40 {
		i++
	}
	if i >= len(b) {
		return 1
	}
	n := i + 1
	switch op := b[i]; {
	case op == 0x62:
		n = i + 5
	case op == 0xc4 || op == 0xc5 || op == 0x8f && i+1 < len(b) && b[i+1]&0x38 != 0 || op == 0xd5:
		n = i + 3
	case op == 0x0f:
		n = i + 2
	case takesModRM(op) && i+1 < len(b):
		if m := modRMLen(b[i+1:]); m > 0 {
			n = i + 1 + m
		}
	}
	return max(1, min(n, len(b), MaxInstLen))
}

// takesModRM reports whether a one-byte opcode has a ModRM operand.
func takesModRM(op byte) bool {
	switch {
	case op < 0x40 && op&7 < 4, op == 0x63, op == 0x69, op == 0x6b, op >= 0x80 && op <= 0x8f,
		op == 0xc0, op == 0xc1, op == 0xc6, op == 0xc7, op >= 0xd0 && op <= 0xd3, op >= 0xd8 && op <= 0xdf,
		op == 0xf6, op == 0xf7, op == 0xfe, op == 0xff:
		return true
	}
	return false
}
