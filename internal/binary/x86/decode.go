// Package x86 decodes x86-64 instructions as LLVM's disassembler (and so
// llvm-profgen) splits them: length, validity and control-flow kind.
//
// In: the bytes at an instruction start. Out: its size and insn.Kind
// (Decode), and its text as llvm-profgen --show-disassembly-only prints
// it (Text: LLVM's AT&T syntax, att*.go). Common instructions take a
// table-driven fast path (fastdecode.go); the rest go through
// golang.org/x/arch/x86/x86asm, corrected where LLVM differs (quirks.go).
package x86

import (
	"golang.org/x/arch/x86/x86asm"

	"github.com/profgen/profgen/internal/binary/insn"
)

// MaxInstLen is the architectural limit of an x86 instruction.
const MaxInstLen = 15

// Decode decodes the instruction at the start of b the way LLVM's x86
// disassembler (and so llvm-profgen) splits instructions. ok is false for
// bytes LLVM does not decode; size is then the number of bytes to skip.
func Decode(b []byte) (size int, kind insn.Kind, ok bool) {
	if n, kind, ok := fastDecode(b); ok {
		return n, kind, true
	}
	return decodeInstSlow(b)
}

// decodeInstSlow is Decode without the fast path: LLVM's special
// cases, then x86asm.
func decodeInstSlow(b []byte) (size int, kind insn.Kind, ok bool) {
	if len(b) == 0 {
		return 1, insn.Other, false
	}
	if n := prefixOnlyInst(b); n > 0 {
		return n, insn.Other, true
	}
	if n := cetHintNop(b); n > 0 {
		return n, insn.Other, true
	}
	if n := vzero(b); n > 0 {
		return n, insn.Other, true
	}
	if n := xop(b); n > 0 {
		return n, insn.Other, true
	}
	if n, kind := rex2(b); n > 0 {
		return n, kind, true
	}
	if len(b) >= 2 && b[0]&0xf0 == 0x40 && (isLegacyPrefix(b[1]) || b[1]&0xf0 == 0x40) {
		// A REX before a prefix or another REX: LLVM makes one instruction
		// of the two, valid unless the second is a REX without W.
		return 2, insn.Other, b[1]&0xf8 != 0x40
	}
	if b[0] == 0xf1 {
		return 1, insn.Other, false // int1 (icebp): LLVM 19 does not decode it
	}
	if len(b) >= 2 && b[0] == 0x0f && b[1] == 0xff {
		return 2, insn.Other, false // ud0: LLVM 19 gives up after the two opcode bytes
	}
	inst, err := x86asm.Decode(b, 64)
	if err == nil && inst.Len > 0 && inst.Op != 0 {
		return inst.Len, kindOf(&inst), true
	}
	// x86asm failed, or "decoded" an instruction it does not know as a
	// 1-byte prefix (setssbsy, ptwrite, rdpid, ...). Try what LLVM knows.
	if n := unknownWithMandatoryPrefix(b); n > 0 {
		return n, insn.Other, true
	}
	if n := llvmOnly(b); n > 0 {
		return n, insn.Other, true
	}
	if n := vex(b); n > 0 {
		return n, insn.Other, true
	}
	if n, kind := afterRedundantPrefixes(b); n > 0 {
		return n, kind, true
	}
	return invalidLen(b), insn.Other, false
}

// prefixOnlyInst returns the length of a prefix LLVM's decoder turns into
// an instruction of its own, 0 if none (X86DisassemblerDecoder readPrefixes):
// a LOCK as the first byte, and an F2/F3 read as xacquire/xrelease (before
// a LOCK, an xchg, or for F3 a mov to memory), ending at that prefix.
func prefixOnlyInst(b []byte) int {
	if b[0] == 0xf0 {
		return 1
	}
	for i := 0; i < len(b) && i < MaxInstLen; i++ {
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

func isLegacyPrefix(c byte) bool {
	switch c {
	case 0xf0, 0xf2, 0xf3, 0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67:
		return true
	}
	return false
}

func kindOf(inst *x86asm.Inst) insn.Kind {
	switch inst.Op {
	case x86asm.CALL, x86asm.LCALL:
		return insn.Call
	case x86asm.RET, x86asm.LRET, x86asm.IRET, x86asm.IRETD, x86asm.IRETQ:
		return insn.Return
	case x86asm.JMP:
		if _, rel := inst.Args[0].(x86asm.Rel); rel {
			return insn.Jump
		}
		return insn.IndirectJump
	case x86asm.LJMP:
		return insn.IndirectJump
	case x86asm.JA, x86asm.JAE, x86asm.JB, x86asm.JBE, x86asm.JE, x86asm.JG, x86asm.JGE,
		x86asm.JL, x86asm.JLE, x86asm.JNE, x86asm.JNO, x86asm.JNP, x86asm.JNS, x86asm.JO,
		x86asm.JP, x86asm.JS, x86asm.JCXZ, x86asm.JECXZ, x86asm.JRCXZ,
		x86asm.LOOP, x86asm.LOOPE, x86asm.LOOPNE, x86asm.XBEGIN:
		return insn.CondBranch
	}
	return insn.Other
}
