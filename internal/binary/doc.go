// Package binary loads the ELF executable a profile was taken from and
// answers the questions profile generation asks about its code.
//
// In: the path of an ELF executable or shared object (and, optionally,
// a separate file holding its DWARF, as made by objcopy --only-keep-debug),
// or of a PE image with DWARF (llvm-profgen's COFF binaries), read through
// an ELF view of its bytes with llvm-profgen's COFF layout (pe.go).
// Out: a *File giving the preferred load address and text segment offset
// (to map runtime addresses back to the ELF's virtual addresses), the GNU
// build id, the function symbols, the DWARF data for the symbolizer, and,
// per address, the decoded instruction there (IsCode, Inst, NextInst,
// CrossesUncondBranch), and the listing llvm-profgen --show-disassembly-only
// prints (WriteListing; the source locations and probes it can add come
// from later stages, through ListingOptions).
//
// The notion of code follows llvm-profgen 19 (ProfiledBinary::disassemble):
// in every executable section except .plt, each symbol of the static symbol
// table (.symtab; any symbol type) starts a range that runs up to the next
// symbol's address or the section end, and each range is disassembled
// linearly from its start, padding and data included. An address is code
// when such a walk decodes a valid instruction there. A stripped binary (no
// .symtab) therefore has no code, as in llvm-profgen.
//
// Decoding is lazy: a symbol range is disassembled the first time an address
// inside it is asked about, and the result is cached (instruction starts as
// a bitmap with a rank table, so IsCode, Inst and CrossesUncondBranch are
// O(log ranges) to find the range and O(1) inside it, without allocating).
// A profile touching 1% of a large binary decodes about 1% of it. All
// methods of File are safe for concurrent use; Close must come last.
//
// Decoding is per architecture: a subpackage per instruction set (x86 for
// x86-64, arm64 for AArch64) decodes one instruction into its length and
// control-flow kind (package insn), and the File picks the decoder by the
// ELF machine. On AArch64 every word of a range is an instruction: words
// llvm-profgen-19 cannot decode (it enables no extension: LSE, RCPC, SVE,
// retaa, blraa, ...) are plain instructions here, as llvm-objdump-19
// decodes them, where llvm-profgen-19 leaves them out of its code.
//
// x86-64 instruction lengths are LLVM's, not the manual's where they differ:
// a leading LOCK, and an F2/F3 taken as xacquire/xrelease, are instructions
// of their own; REX before a legacy prefix makes a 2-byte instruction; ud0
// is invalid. Common instructions go through a table-driven fast path; the
// rest through golang.org/x/arch/x86/x86asm, corrected where it is wrong
// (endbr64 and other F3/F2/66 0F instructions it does not know, vzeroupper,
// XOP, APX REX2). The tests compare whole binaries with
// llvm-profgen-19 --show-disassembly-only and llvm-objdump-19.
//
// Known deviations from llvm-profgen 19: a range is never decoded past the
// end of its section (llvm-profgen reads beyond it when a symbol of the
// section lies past its end); inside data embedded in text, the walk can
// still fall out of step with LLVM's for a few instructions (0.1% of the
// addresses of a 20 MB Rust binary with crypto tables in .text; none in
// compiled C, C++ or Go code checked).
package binary
