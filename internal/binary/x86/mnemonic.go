package x86

import (
	"strings"

	"github.com/profgen/profgen/internal/binary/insn"
)

// MnemonicKind classifies an instruction as llvm-objdump prints it (AT&T
// syntax, mnemonic first). The tests compare the decoder with LLVM
// through it.
func MnemonicKind(text string) insn.Kind {
	f := strings.Fields(text)
	if len(f) == 0 {
		return insn.Other
	}
	for len(f) > 1 && (f[0] == "notrack" || f[0] == "rep" || f[0] == "repne" || f[0] == "bnd" || f[0] == "cs" || f[0] == "ds" || f[0] == "data16") {
		f = f[1:]
	}
	m := f[0]
	switch {
	case strings.HasPrefix(m, "call"), strings.HasPrefix(m, "lcall"):
		return insn.Call
	case strings.HasPrefix(m, "ret"), strings.HasPrefix(m, "lret"), strings.HasPrefix(m, "iret"):
		return insn.Return
	case strings.HasPrefix(m, "jmp") && len(f) > 1 && strings.HasPrefix(f[1], "*"), strings.HasPrefix(m, "ljmp"):
		return insn.IndirectJump
	case strings.HasPrefix(m, "jmp"):
		return insn.Jump
	case m[0] == 'j', strings.HasPrefix(m, "loop"), m == "xbegin":
		return insn.CondBranch
	}
	return insn.Other
}
