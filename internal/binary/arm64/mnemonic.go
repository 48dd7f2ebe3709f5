package arm64

import (
	"strings"

	"github.com/profgen/profgen/internal/binary/insn"
)

// MnemonicKind classifies an instruction as llvm-objdump prints it
// (mnemonic first; "<unknown>" and data directives are plain). The tests
// compare the decoder with LLVM through it.
func MnemonicKind(text string) insn.Kind {
	f := strings.Fields(text)
	if len(f) == 0 {
		return insn.Other
	}
	m := f[0]
	switch m {
	case "bl", "blr", "blraa", "blraaz", "blrab", "blrabz":
		return insn.Call
	case "ret", "retaa", "retab", "eret", "eretaa", "eretab", "drps",
		"retaasppc", "retabsppc", "retaasppcr", "retabsppcr":
		return insn.Return
	case "b":
		return insn.Jump
	case "br", "braa", "braaz", "brab", "brabz":
		return insn.IndirectJump
	case "cbz", "cbnz", "tbz", "tbnz":
		return insn.CondBranch
	}
	if strings.HasPrefix(m, "b.") || strings.HasPrefix(m, "bc.") {
		return insn.CondBranch
	}
	return insn.Other
}
