package x86

import "github.com/profgen/profgen/internal/binary/insn"

// A table-driven decoder for the instructions that make up most compiled
// code (moves, arithmetic, lea, push/pop, calls, jumps, returns, setcc,
// cmov, common SSE). It is several times faster than x86asm and gives up
// (ok false) on anything else, which then goes the x86asm way. Its answers
// are checked against x86asm by FuzzFastDecode and against LLVM by the
// reference tests.

// Operand layouts after the opcode.
const (
	lyUnknown  uint8 = iota // not handled here
	lyNone                  // no operand bytes
	lyModRM                 // ModRM (+SIB, displacement)
	lyModRMI8               // ModRM + imm8
	lyModRMIz               // ModRM + imm16/32
	lyI8                    // imm8
	lyIz                    // imm16/32
	lyIv                    // imm16/32/64 (mov r, imm)
	lyI16                   // imm16
	lyRel8                  // rel8 branch
	lyRel32                 // rel32 branch
	lyGroup                 // depends on ModRM.reg: see groupLayout
	lyModRMMem              // ModRM, memory operand only (lea)
)

var oneByteLayout, twoByteLayout [256]uint8
var oneByteKind, twoByteKind [256]insn.Kind

func init() {
	set := func(t *[256]uint8, l uint8, ops ...int) {
		for _, op := range ops {
			t[op] = l
		}
	}
	// Arithmetic blocks 00-3D: r/m forms, then AL/eAX immediate forms.
	for base := 0; base < 0x40; base += 8 {
		set(&oneByteLayout, lyModRM, base, base+1, base+2, base+3)
		set(&oneByteLayout, lyI8, base+4)
		set(&oneByteLayout, lyIz, base+5)
	}
	for op := 0x50; op <= 0x5f; op++ {
		oneByteLayout[op] = lyNone // push/pop r
	}
	set(&oneByteLayout, lyModRM, 0x63, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b)
	set(&oneByteLayout, lyModRMMem, 0x8d)
	set(&oneByteLayout, lyIz, 0x68, 0xa9)
	set(&oneByteLayout, lyModRMIz, 0x69, 0x81)
	set(&oneByteLayout, lyI8, 0x6a, 0xa8)
	set(&oneByteLayout, lyModRMI8, 0x6b, 0x80, 0x83)
	for op := 0x70; op <= 0x7f; op++ {
		oneByteLayout[op], oneByteKind[op] = lyRel8, insn.CondBranch
	}
	for op := 0x90; op <= 0x99; op++ {
		oneByteLayout[op] = lyNone // xchg, nop, cwde, cdq
	}
	for op := 0xb0; op <= 0xb7; op++ {
		oneByteLayout[op] = lyI8
	}
	for op := 0xb8; op <= 0xbf; op++ {
		oneByteLayout[op] = lyIv
	}
	oneByteLayout[0xc2], oneByteKind[0xc2] = lyI16, insn.Return
	oneByteLayout[0xc3], oneByteKind[0xc3] = lyNone, insn.Return
	set(&oneByteLayout, lyNone, 0xc9, 0xcc, 0xf4, 0xf5, 0xf8, 0xf9, 0xfc, 0xfd)
	set(&oneByteLayout, lyGroup, 0xc0, 0xc1, 0xd0, 0xd1, 0xd2, 0xd3, 0xc6, 0xc7, 0xf6, 0xf7, 0xfe, 0xff)
	oneByteLayout[0xe8], oneByteKind[0xe8] = lyRel32, insn.Call
	oneByteLayout[0xe9], oneByteKind[0xe9] = lyRel32, insn.Jump
	oneByteLayout[0xeb], oneByteKind[0xeb] = lyRel8, insn.Jump

	set(&twoByteLayout, lyNone, 0x05, 0x0b)
	for op := 0x40; op <= 0x4f; op++ {
		twoByteLayout[op] = lyModRM // cmovcc
	}
	for op := 0x80; op <= 0x8f; op++ {
		twoByteLayout[op], twoByteKind[op] = lyRel32, insn.CondBranch
	}
	for op := 0x90; op <= 0x9f; op++ {
		twoByteLayout[op] = lyModRM // setcc
	}
	for op := 0xc8; op <= 0xcf; op++ {
		twoByteLayout[op] = lyNone // bswap
	}
	set(&twoByteLayout, lyModRM, 0x10, 0x11, 0x28, 0x29, 0x2e, 0x2f, 0x54, 0x57, 0x58, 0x59, 0x5c, 0x5e,
		0x6e, 0x6f, 0x7e, 0x7f, 0xef, 0xa3, 0xa5, 0xab, 0xad, 0xaf, 0xb0, 0xb1, 0xb3, 0xb6, 0xb7, 0xbb,
		0xbe, 0xbf, 0xc0, 0xc1)
	set(&twoByteLayout, lyModRMI8, 0xa4, 0xac)
	twoByteLayout[0x1f] = lyGroup // nop r/m: /0 only
}

// groupLayout is the layout of group opcodes, by ModRM.reg; lyUnknown for
// the members left to x86asm.
func groupLayout(twoByte bool, op, reg byte) (uint8, insn.Kind) {
	switch {
	case twoByte && op == 0x1f && reg == 0:
		return lyModRM, insn.Other
	case twoByte:
		return lyUnknown, insn.Other
	case (op == 0xc0 || op == 0xc1 || op >= 0xd0 && op <= 0xd3) && reg == 6:
		return lyUnknown, insn.Other // the undocumented sal
	case op == 0xc0 || op == 0xc1:
		return lyModRMI8, insn.Other
	case op >= 0xd0 && op <= 0xd3:
		return lyModRM, insn.Other
	case (op == 0xc6 || op == 0xc7) && reg != 0:
		return lyUnknown, insn.Other // xabort, xbegin
	case op == 0xc6:
		return lyModRMI8, insn.Other
	case op == 0xc7:
		return lyModRMIz, insn.Other
	case (op == 0xf6 || op == 0xf7) && reg == 1:
		return lyUnknown, insn.Other
	case op == 0xf6 && reg == 0:
		return lyModRMI8, insn.Other
	case op == 0xf7 && reg == 0:
		return lyModRMIz, insn.Other
	case op == 0xf6 || op == 0xf7:
		return lyModRM, insn.Other
	case op == 0xfe && reg <= 1:
		return lyModRM, insn.Other
	case op == 0xff && reg <= 1, op == 0xff && reg == 6:
		return lyModRM, insn.Other
	case op == 0xff && reg == 2:
		return lyModRM, insn.Call
	case op == 0xff && reg == 4:
		return lyModRM, insn.IndirectJump
	}
	return lyUnknown, insn.Other
}

// fastDecode decodes the common instructions; ok is false when it does not
// know the answer.
func fastDecode(b []byte) (n int, kind insn.Kind, ok bool) {
	i, opsize, prefixed := 0, false, false
	for ; i < len(b) && i < 4; i++ {
		if b[i] == 0x66 {
			opsize = true
		} else if b[i] != 0x2e && b[i] != 0x3e && b[i] != 0x64 && b[i] != 0x65 {
			break
		}
		prefixed = true
	}
	rexW := false
	if i < len(b) && b[i]&0xf0 == 0x40 {
		rexW = b[i]&8 != 0
		i++
	}
	if i+1 >= len(b) {
		return 0, insn.Other, false
	}
	layout, kind, twoByte := oneByteLayout[b[i]], oneByteKind[b[i]], false
	if b[i] == 0x0f {
		i++
		layout, kind, twoByte = twoByteLayout[b[i]], twoByteKind[b[i]], true
	}
	op := b[i]
	i++
	if layout == lyGroup {
		if i >= len(b) {
			return 0, insn.Other, false
		}
		layout, kind = groupLayout(twoByte, op, b[i]>>3&7)
	}
	if layout == lyUnknown || (prefixed && kind != insn.Other) {
		return 0, insn.Other, false
	}
	n = operandLen(b[i:], layout, opsize && !rexW, rexW)
	if n < 0 || i+n > MaxInstLen || i+n > len(b) {
		return 0, insn.Other, false
	}
	return i + n, kind, true
}

// operandLen is the number of bytes the layout takes at the start of b,
// -1 if b is too short or the ModRM form is not handled.
func operandLen(b []byte, layout uint8, opsize16, rexW bool) int {
	iz := 4
	if opsize16 {
		iz = 2
	}
	switch layout {
	case lyNone:
		return 0
	case lyI8, lyRel8:
		return 1
	case lyI16:
		return 2
	case lyIz, lyRel32:
		return iz
	case lyIv:
		if rexW {
			return 8
		}
		return iz
	}
	m := modRMLen(b)
	if m == 0 || (layout == lyModRMMem && b[0]>>6 == 3) {
		return -1
	}
	switch layout {
	case lyModRMI8:
		return m + 1
	case lyModRMIz:
		return m + iz
	}
	return m
}
