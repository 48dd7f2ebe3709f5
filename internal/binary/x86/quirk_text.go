package x86

// The text of the instructions x86asm does not decode, or decodes
// wrongly, and LLVM does (quirks.go sizes them).

import (
	"strconv"
	"strings"

	"golang.org/x/arch/x86/x86asm"
)

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

// quirkText renders in syntax s the instructions Decode sizes itself
// because x86asm gets them wrong (quirks.go): n is the instruction's
// length. ok is false for the others.
func (s syntax) quirkText(b []byte, n int) (string, bool) {
	if t, ok := s.f3Text(b[:n]); ok {
		return t, true
	}
	if t, ok := s.adcxText(b[:n]); ok {
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
		return s.cetText(b), true
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
func (s syntax) cetText(b []byte) string {
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
			return "\trdsspq\t" + s.reg(x86asm.RAX+x86asm.Reg(modrm&7|(b[i-1]&1)<<3))
		}
		return "\trdsspd\t" + s.reg(x86asm.EAX+x86asm.Reg(modrm&7))
	}
	return "\tnop" // the reserved hint NOPs; LLVM prints them as nopl with the operand
}

// f3Text names the F3 0F instructions x86asm does not know: the CET
// shadow-stack ones, ptwrite and rdpid.
func (s syntax) f3Text(b []byte) (string, bool) {
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
			return s.reg(x86asm.RAX + r)
		}
		return s.reg(x86asm.EAX + r)
	}
	w := map[bool]string{true: "q", false: "l"}[rex&8 != 0]
	switch {
	case op == 0x01 && modrm == 0xe8 && rex == 0:
		return "\tsetssbsy", true
	case op == 0x01 && modrm == 0xea && rex == 0:
		return "\tsaveprevssp", true
	case op == 0xc7 && modrm>>3 == 0x1f:
		return "\trdpid\t" + s.reg(x86asm.RAX+(x86asm.Reg(modrm&7)|x86asm.Reg(rex&1)<<3)), true
	case op == 0xae && modrm>>3 == 0x1d:
		return "\tincssp" + w + "\t" + reg(), true
	case op == 0xae && modrm>>3 == 0x1c:
		return "\t" + s.sized("ptwrite", map[string]int{"q": 8, "l": 4}[w]) + "\t" + reg(), true
	}
	return "", false
}

// adcxText prints adcx (66 0F 38 F6 /r) and adox (F3 0F 38 F6 /r), which
// x86asm does not know: the operands are those of add r, r/m (03 /r)
// with the same REX and ModRM.
func (s syntax) adcxText(b []byte) (string, bool) {
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
	return "\t" + s.sized(name, argBytes(&inst, inst.Args[0])) + "\t" + strings.Join(s.operands(&inst, 0), ", "), true
}
