package binary

import (
	"debug/elf"

	"github.com/profgen/profgen/internal/binary/x86"
)

// DirectTarget returns the target of in when it is a direct call, jump or
// conditional branch of x86-64 code; false otherwise (and on AArch64).
func (f *File) DirectTarget(in Inst) (uint64, bool) {
	if f.elf.Machine != elf.EM_X86_64 || in.Size == 0 || in.Size > 16 {
		return 0, false
	}
	var b [16]byte
	if f.ReadCode(in.Addr, b[:in.Size]) != nil {
		return 0, false
	}
	return x86.DirectTarget(b[:in.Size], in.End())
}
