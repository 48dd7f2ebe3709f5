// Package binary loads the ELF executable a profile was taken from and
// answers the questions profile generation asks about its code.
//
// In: the path of an x86-64 ELF executable or shared object (and, optionally,
// a separate file holding its DWARF, as made by objcopy --only-keep-debug).
// Out: a *File giving the preferred load address and text segment offset
// (to map runtime addresses back to the ELF's virtual addresses), the GNU
// build id, the function symbols, the DWARF data for the symbolizer, and,
// per address, the decoded instruction there (IsCode, Inst, NextInst,
// CrossesUncondBranch).
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
// inside it is asked about, and the result is cached. A profile touching 1%
// of a large binary decodes about 1% of it. All methods of File are safe for
// concurrent use.
package binary
