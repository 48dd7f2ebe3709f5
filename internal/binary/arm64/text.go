package arm64

// The text of an instruction as LLVM's AArch64 printer
// (AArch64InstPrinter, generic syntax) writes it, which llvm-profgen
// --show-disassembly-only prints. x/arch's arm64asm decodes the
// operands; each is rewritten the way LLVM prints it: lower case,
// decimal immediates (hex where LLVM prints hex: logical masks, brk),
// branch and literal targets as absolute hex addresses, "hs"/"lo" for
// the carry conditions, ", " inside memory operands, "{ }" lists.

import (
	"encoding/binary"
	"strconv"
	"strings"

	"golang.org/x/arch/arm64/arm64asm"
)

// Text returns the instruction at the start of b, at address pc, as
// llvm-profgen-19 prints it after the address: "\tmnemonic\toperands", or
// "\t<unknown>" for a word LLVM's disassembler does not decode with no
// extension enabled (approximated by the words arm64asm does not decode,
// which knows Armv8.0 without its optional extensions).
func Text(b []byte, pc uint64) string {
	if len(b) < MaxInstLen {
		return "\t<unknown>"
	}
	w := binary.LittleEndian.Uint32(b)
	switch {
	case w>>16 == 0:
		return "\tudf\t#" + strconv.Itoa(int(w))
	case w == 0xd503477f:
		return "\tsmstart" // msr svcrsmza, #1, which llvm-profgen-19 prints though SME is off
	case w == 0xd503467f:
		return "\tsmstop"
	}
	inst, err := arm64asm.Decode(b[:MaxInstLen])
	if err != nil || needsExtension(inst.Op) || badExtendShift(&inst) {
		return "\t<unknown>"
	}
	name, args := mnemonic(&inst)
	if name == "" {
		return "\t<unknown>"
	}
	var ops []string
	for _, a := range args {
		if a == nil {
			break
		}
		ops = append(ops, operand(&inst, a, pc))
	}
	switch inst.Op {
	case arm64asm.UXTL, arm64asm.UXTL2, arm64asm.SXTL, arm64asm.SXTL2:
		// LLVM prints the shift-left-long itself, not the extend alias.
		name = map[arm64asm.Op]string{arm64asm.UXTL: "ushll", arm64asm.UXTL2: "ushll2", arm64asm.SXTL: "sshll", arm64asm.SXTL2: "sshll2"}[inst.Op]
		ops = append(ops, "#0")
	}
	if len(ops) == 0 {
		return "\t" + name
	}
	return "\t" + name + "\t" + strings.Join(ops, ", ")
}

// badExtendShift reports an extended-register operand shifted by more
// than 4, which arm64asm accepts and LLVM does not decode.
func badExtendShift(inst *arm64asm.Inst) bool {
	for _, a := range inst.Args {
		r, ok := a.(arm64asm.RegExtshiftAmount)
		if !ok {
			continue
		}
		_, ext, _ := strings.Cut(r.String(), ", ")
		kind, amount, ok := strings.Cut(ext, " #")
		if ok && kind != "LSL" && kind != "LSR" && kind != "ASR" && kind != "ROR" {
			if n, err := strconv.Atoi(amount); err == nil && n > 4 {
				return true
			}
		}
	}
	return false
}

// needsExtension reports the Armv8.0 instructions of optional extensions
// (crypto, CRC32), which llvm-profgen-19 does not decode.
func needsExtension(op arm64asm.Op) bool {
	switch op {
	case arm64asm.AESD, arm64asm.AESE, arm64asm.AESIMC, arm64asm.AESMC,
		arm64asm.SHA1C, arm64asm.SHA1H, arm64asm.SHA1M, arm64asm.SHA1P, arm64asm.SHA1SU0, arm64asm.SHA1SU1,
		arm64asm.SHA256H, arm64asm.SHA256H2, arm64asm.SHA256SU0, arm64asm.SHA256SU1,
		arm64asm.CRC32B, arm64asm.CRC32H, arm64asm.CRC32W, arm64asm.CRC32X,
		arm64asm.CRC32CB, arm64asm.CRC32CH, arm64asm.CRC32CW, arm64asm.CRC32CX:
		return true
	}
	return false
}

// mnemonic is LLVM's name of the instruction and the operands it prints.
func mnemonic(inst *arm64asm.Inst) (string, []arm64asm.Arg) {
	args := inst.Args[:]
	name := strings.ToLower(inst.Op.String())
	switch inst.Op {
	case arm64asm.RET:
		if r, ok := args[0].(arm64asm.Reg); ok && r == arm64asm.X30 {
			return "ret", nil
		}
	case arm64asm.B:
		if c, ok := args[0].(arm64asm.Cond); ok {
			return "b." + condName(c), args[1:]
		}
	case arm64asm.HINT:
		return "hint", args
	case arm64asm.ISB:
		if o, ok := args[0].(arm64asm.Imm_option); ok && o == 15 {
			return "isb", nil
		}
	case arm64asm.BFM:
		return bfmAlias(inst)
	}
	return name, args
}

// bfmAlias names a bfm by its bfi or bfxil alias, as LLVM prints it
// (arm64asm keeps bfm where the source is the zero register).
func bfmAlias(inst *arm64asm.Inst) (string, []arm64asm.Arg) {
	immr, ok1 := inst.Args[2].(arm64asm.Imm)
	imms, ok2 := inst.Args[3].(arm64asm.Imm)
	if !ok1 || !ok2 {
		return "bfm", inst.Args[:]
	}
	size := uint32(64)
	if isWReg(inst.Args[0]) {
		size = 32
	}
	args := inst.Args
	if imms.Imm < immr.Imm {
		args[2], args[3] = arm64asm.Imm{Imm: size - immr.Imm, Decimal: true}, arm64asm.Imm{Imm: imms.Imm + 1, Decimal: true}
		return "bfi", args[:]
	}
	args[2], args[3] = arm64asm.Imm{Imm: immr.Imm, Decimal: true}, arm64asm.Imm{Imm: imms.Imm - immr.Imm + 1, Decimal: true}
	return "bfxil", args[:]
}

// condName is LLVM's name of a condition: hs and lo for cs and cc.
func condName(c arm64asm.Cond) string {
	if c.Value == 15 {
		return "nv" // arm64asm calls both 14 and 15 al
	}
	s := strings.ToLower(c.String())
	switch s {
	case "cs":
		return "hs"
	case "cc":
		return "lo"
	}
	return s
}

// operand formats one operand as LLVM prints it.
func operand(inst *arm64asm.Inst, a arm64asm.Arg, pc uint64) string {
	switch a := a.(type) {
	case arm64asm.Reg, arm64asm.RegSP:
		return strings.ToLower(a.String())
	case arm64asm.Cond:
		return condName(a)
	case arm64asm.PCRel:
		// llvm-profgen hands the printer the address of the next
		// instruction: its targets are 4 bytes past the real ones.
		next := pc + 4
		target := next + uint64(int64(a))
		if inst.Op == arm64asm.ADRP {
			target = next&^0xfff + uint64(int64(a))
		}
		return "0x" + strconv.FormatUint(target, 16)
	case arm64asm.Imm:
		return immText(inst, uint64(a.Imm), a.Decimal)
	case arm64asm.Imm64:
		return immText(inst, a.Imm, a.Decimal)
	case arm64asm.Imm_hint:
		return "#" + strconv.Itoa(int(a))
	case arm64asm.Imm_dcps:
		return "#" + hex(uint64(a))
	case arm64asm.MemImmediate, arm64asm.MemExtend:
		return memText(a.String())
	case arm64asm.Imm_fp:
		return fpImmText(a.String())
	case arm64asm.Systemreg:
		if name, ok := sysRegNames[a.String()]; ok {
			return name
		}
		return a.String() // LLVM prints unnamed ones in upper case, as arm64asm does
	}
	if t := a.String(); strings.HasPrefix(t, "{") {
		return listText(t)
	}
	return lowerOperand(a.String())
}

// immText is an immediate: hex for the logical (bitmask) immediates and
// the exception-generating instructions, as LLVM prints them, else
// decimal.
func immText(inst *arm64asm.Inst, v uint64, _ bool) string {
	switch inst.Op {
	case arm64asm.MOV:
		if isWReg(inst.Args[0]) {
			return "#" + strconv.FormatInt(int64(int32(v)), 10)
		}
		return "#" + strconv.FormatInt(int64(v), 10)
	case arm64asm.AND, arm64asm.ANDS, arm64asm.ORR, arm64asm.EOR, arm64asm.TST,
		arm64asm.BRK, arm64asm.HLT, arm64asm.HVC, arm64asm.SMC, arm64asm.DCPS1, arm64asm.DCPS2, arm64asm.DCPS3:
		return "#" + hex(v)
	case arm64asm.FCMP, arm64asm.FCMPE:
		return "#0.0"
	case arm64asm.MOVI:
		if is64BitMask(inst) {
			// LLVM's printSIMDType10Operand: C's %#016llx.
			if v == 0 {
				return "#0000000000000000"
			}
			h := strconv.FormatUint(v, 16)
			return "#0x" + strings.Repeat("0", max(0, 14-len(h))) + h
		}
	}
	return "#" + strconv.FormatUint(v, 10)
}

// isWReg reports a 32-bit general register (or wsp).
func isWReg(a arm64asm.Arg) bool {
	switch r := a.(type) {
	case arm64asm.Reg:
		return r >= arm64asm.W0 && r <= arm64asm.WZR
	case arm64asm.RegSP:
		return arm64asm.Reg(r) >= arm64asm.W0 && arm64asm.Reg(r) <= arm64asm.WZR
	}
	return false
}

// is64BitMask reports a movi of a 64-bit byte mask: to a D register or
// a .2D vector.
func is64BitMask(inst *arm64asm.Inst) bool {
	if r, ok := inst.Args[0].(arm64asm.Reg); ok {
		return r >= arm64asm.D0 && r <= arm64asm.D31
	}
	return strings.HasSuffix(inst.Args[0].String(), ".2D")
}

// hex formats as C's %#x does, which LLVM's printer uses: 0 without 0x.
func hex(v uint64) string {
	if v == 0 {
		return "0"
	}
	return "0x" + strconv.FormatUint(v, 16)
}

// fpImmText prints an 8-bit floating-point immediate as LLVM does
// (%.8f): arm64asm's is in exponent notation.
func fpImmText(s string) string {
	v, err := strconv.ParseFloat(strings.TrimPrefix(s, "#"), 64)
	if err != nil {
		return strings.ToLower(s)
	}
	return "#" + strconv.FormatFloat(v, 'f', 8, 64)
}

// listText rewrites a register list, "{V0.16B-V3.16B}" or "{V8.16B,
// V9.16B}" with an optional "[index]", as LLVM prints it: "{ v0.16b,
// v1.16b, v2.16b, v3.16b }", every register named.
func listText(s string) string {
	s = strings.ToLower(s)
	end := strings.IndexByte(s, '}')
	if !strings.HasPrefix(s, "{") || end < 0 {
		return s
	}
	body, rest := s[1:end], s[end+1:]
	var regs []string
	if first, last, ok := strings.Cut(body, "-"); ok {
		a, arr, ok1 := vreg(first)
		b, _, ok2 := vreg(last)
		if !ok1 || !ok2 {
			return s
		}
		for i := a; ; i = (i + 1) % 32 {
			regs = append(regs, "v"+strconv.Itoa(i)+arr)
			if i == b || len(regs) == 4 {
				break
			}
		}
	} else {
		regs = strings.Split(body, ", ")
	}
	return "{ " + strings.Join(regs, ", ") + " }" + rest
}

// vreg splits "v12.16b" into 12 and ".16b".
func vreg(s string) (int, string, bool) {
	dot := strings.IndexByte(s, '.')
	if !strings.HasPrefix(s, "v") || dot < 0 {
		return 0, "", false
	}
	n, err := strconv.Atoi(s[1:dot])
	return n, s[dot:], err == nil
}

// memText rewrites arm64asm's "[x0,#8]" as LLVM's "[x0, #8]".
func memText(s string) string {
	s = lowerOperand(s)
	return strings.ReplaceAll(strings.ReplaceAll(s, ",", ", "), ",  ", ", ")
}

// lowerOperand lower-cases an operand, keeping hex digits' case as LLVM
// does (lower) and turning hex numbers into decimal.
func lowerOperand(s string) string {
	s = strings.ToLower(s)
	var out strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], "#0x") || strings.HasPrefix(s[i:], "#-0x") {
			j := i + 1
			neg := s[j] == '-'
			if neg {
				j++
			}
			k := j + 2
			for k < len(s) && isHex(s[k]) {
				k++
			}
			v, err := strconv.ParseUint(s[j+2:k], 16, 64)
			if err == nil {
				out.WriteByte('#')
				if neg {
					out.WriteByte('-')
				}
				out.WriteString(strconv.FormatUint(v, 10))
				i = k
				continue
			}
		}
		out.WriteByte(s[i])
		i++
	}
	return out.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
}

// sysRegNames are the names LLVM prints for system registers of Armv8.0
// that programs read (by arm64asm's encoding name).
var sysRegNames = map[string]string{
	"S3_3_C13_C0_2": "TPIDR_EL0",
	"S3_3_C13_C0_3": "TPIDRRO_EL0",
	"S3_0_C13_C0_4": "TPIDR_EL1",
	"S3_3_C4_C2_0":  "NZCV",
	"S3_3_C4_C2_1":  "DAIF",
	"S3_3_C4_C4_0":  "FPCR",
	"S3_3_C4_C4_1":  "FPSR",
	"S3_3_C14_C0_0": "CNTFRQ_EL0",
	"S3_3_C14_C0_1": "CNTPCT_EL0",
	"S3_3_C14_C0_2": "CNTVCT_EL0",
	"S3_0_C0_C0_0":  "MIDR_EL1",
	"S3_0_C0_C0_5":  "MPIDR_EL1",
	"S3_0_C0_C0_6":  "REVIDR_EL1",
	"S3_3_C0_C0_1":  "CTR_EL0",
	"S3_3_C0_C0_7":  "DCZID_EL0",
	"S3_0_C0_C4_0":  "ID_AA64PFR0_EL1",
	"S3_0_C0_C4_1":  "ID_AA64PFR1_EL1",
	"S3_0_C0_C6_0":  "ID_AA64ISAR0_EL1",
	"S3_0_C0_C6_1":  "ID_AA64ISAR1_EL1",
	"S3_0_C0_C7_0":  "ID_AA64MMFR0_EL1",
	"S3_0_C0_C7_1":  "ID_AA64MMFR1_EL1",
	"S3_0_C4_C2_2":  "CurrentEL",
	"S3_0_C4_C1_0":  "SP_EL0",
}
