// Package arm64 decodes AArch64 (A64) instructions for package binary:
// their size and control-flow kind, as LLVM's disassembler classes them.
//
// In: the bytes at an instruction start. Out: its size (always 4) and
// insn.Kind (Decode), and its text as llvm-profgen --show-disassembly-only
// prints it (Text, text.go). Every aligned word is an instruction: A64 has one
// instruction length, so a word golang.org/x/arch/arm64/arm64asm does not
// know (SVE, SME, LSE atomics, RCPC, pointer authentication, BTI and the
// other extensions after Armv8.0) keeps its 4-byte boundary and counts as a
// plain instruction. llvm-objdump-19 decodes those words with every
// extension enabled; llvm-profgen-19 does not (it enables none, LLVM PR
// #204619) and leaves them out of its code, so it counts no samples on
// them and takes a branch from or to one for an external address.
//
// Kinds follow LLVM's MCInstrDesc flags as llvm-profgen reads them: calls
// are BL, BLR and BLRAA/BLRAAZ/BLRAB/BLRABZ; returns RET, RETAA/RETAB,
// RETAASPPC/RETABSPPC (and their register forms), ERET, ERETAA/ERETAB and
// DRPS; B is a direct jump; BR and BRAA/BRAAZ/BRAB/BRABZ are indirect
// jumps; B.cond, BC.cond, CBZ, CBNZ, TBZ and TBNZ are conditional
// branches.
package arm64

import (
	"encoding/binary"

	"golang.org/x/arch/arm64/arm64asm"

	"github.com/profgen/profgen/internal/binary/insn"
)

// MaxInstLen is the length of every A64 instruction.
const MaxInstLen = 4

// Decode decodes the instruction at the start of b. ok is false only when
// fewer than 4 bytes are left (the end of a section); size is then what is
// left, at least 1.
func Decode(b []byte) (size int, kind insn.Kind, ok bool) {
	if len(b) < MaxInstLen {
		return max(len(b), 1), insn.Other, false
	}
	return MaxInstLen, KindOf(binary.LittleEndian.Uint32(b)), true
}

// KindOf classifies the instruction word w.
func KindOf(w uint32) insn.Kind {
	if w>>26&7 != 0b101 {
		return insn.Other // not in the branch, exception and system group
	}
	if k, ok := authKind(w); ok {
		return k
	}
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], w)
	inst, err := arm64asm.Decode(b[:])
	if err != nil {
		return insn.Other
	}
	return baseKind(&inst)
}

// baseKind is the kind of the Armv8.0 branches x/arch decodes.
func baseKind(inst *arm64asm.Inst) insn.Kind {
	switch inst.Op {
	case arm64asm.B:
		if _, cond := inst.Args[0].(arm64asm.Cond); cond {
			return insn.CondBranch
		}
		return insn.Jump
	case arm64asm.BL, arm64asm.BLR:
		return insn.Call
	case arm64asm.BR:
		return insn.IndirectJump
	case arm64asm.RET, arm64asm.ERET, arm64asm.DRPS:
		return insn.Return
	case arm64asm.CBZ, arm64asm.CBNZ, arm64asm.TBZ, arm64asm.TBNZ:
		return insn.CondBranch
	}
	return insn.Other
}

// Encodings of the branches of later extensions, which x/arch does not
// decode: pointer authentication (Armv8.3 PAuth, Armv9.5 PAuth_LR) and
// BC.cond (Armv8.8 HBC). Each is a mask and the value of the fixed bits.
var authBranches = []struct {
	mask, value uint32
	kind        insn.Kind
}{
	{0xfffffbff, 0xd65f0bff, insn.Return},       // RETAA, RETAB
	{0xfffffbff, 0xd69f0bff, insn.Return},       // ERETAA, ERETAB
	{0xfffffbe0, 0xd65f0be0, insn.Return},       // RETAASPPCR, RETABSPPCR <Xm>
	{0xffc0001f, 0x5500001f, insn.Return},       // RETAASPPC, RETABSPPC <label>
	{0xfffff81f, 0xd63f081f, insn.Call},         // BLRAAZ, BLRABZ <Xn>
	{0xfffff800, 0xd73f0800, insn.Call},         // BLRAA, BLRAB <Xn>, <Xm|SP>
	{0xfffff81f, 0xd61f081f, insn.IndirectJump}, // BRAAZ, BRABZ <Xn>
	{0xfffff800, 0xd71f0800, insn.IndirectJump}, // BRAA, BRAB <Xn>, <Xm|SP>
	{0xff000010, 0x54000010, insn.CondBranch},   // BC.cond
}

// authKind classifies the branches of authBranches.
func authKind(w uint32) (insn.Kind, bool) {
	for _, e := range authBranches {
		if w&e.mask == e.value {
			return e.kind, true
		}
	}
	return insn.Other, false
}
