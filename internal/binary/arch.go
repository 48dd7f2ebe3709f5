package binary

import (
	"debug/elf"
	"fmt"

	"github.com/profgen/profgen/internal/binary/arm64"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/binary/x86"
)

// An arch is the per-architecture part of decoding: the decoder of one
// instruction, the longest instruction it can return, and the printer of
// an instruction's text as llvm-profgen prints it.
type arch struct {
	decode     insn.Decoder
	maxInstLen int
	text       func(b []byte, pc uint64) string
	// intelText prints an instruction in Intel syntax (x86 only; nil
	// where the architecture has one syntax).
	intelText func(b []byte, pc uint64) string
}

// archOf returns the decoder for the machine of an ELF file.
func archOf(m elf.Machine) (arch, error) {
	switch m {
	case elf.EM_X86_64:
		return arch{decode: x86.Decode, maxInstLen: x86.MaxInstLen, text: x86.Text, intelText: x86.IntelText}, nil
	case elf.EM_AARCH64:
		return arch{decode: arm64.Decode, maxInstLen: arm64.MaxInstLen, text: arm64.Text}, nil
	}
	return arch{}, fmt.Errorf("unsupported machine %v (x86-64 and AArch64 are decoded)", m)
}
