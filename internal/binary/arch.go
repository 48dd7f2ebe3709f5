package binary

import (
	"debug/elf"
	"fmt"

	"github.com/profgen/profgen/internal/binary/arm64"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/binary/x86"
)

// An arch is the per-architecture part of decoding: the decoder of one
// instruction and the longest instruction it can return.
type arch struct {
	decode     insn.Decoder
	maxInstLen int
}

// archOf returns the decoder for the machine of an ELF file.
func archOf(m elf.Machine) (arch, error) {
	switch m {
	case elf.EM_X86_64:
		return arch{decode: x86.Decode, maxInstLen: x86.MaxInstLen}, nil
	case elf.EM_AARCH64:
		return arch{decode: arm64.Decode, maxInstLen: arm64.MaxInstLen}, nil
	}
	return arch{}, fmt.Errorf("unsupported machine %v (x86-64 and AArch64 are decoded)", m)
}
