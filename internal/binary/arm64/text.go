package arm64

import (
	"encoding/binary"

	"golang.org/x/arch/arm64/arm64asm"
)

// Text returns the instruction at the start of b, at address pc, as
// llvm-profgen-19 prints it after the address: "\tmnemonic\toperands", or
// "\t<unknown>" for a word LLVM's disassembler does not decode with no
// extension enabled.
func Text(b []byte, pc uint64) string {
	if len(b) < MaxInstLen {
		return "\t<unknown>"
	}
	inst, err := arm64asm.Decode(b[:MaxInstLen])
	if err != nil {
		return "\t<unknown>"
	}
	_ = binary.LittleEndian
	return "\t" + arm64asm.GNUSyntax(inst)
}
