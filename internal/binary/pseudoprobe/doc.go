// Package pseudoprobe decodes the pseudo probes clang leaves in a binary
// built with -fpseudo-probe-for-profiling, as LLVM 19 writes them.
//
// In: the bytes of two ELF sections of the profiled binary and the start
// addresses of its functions (from its symbol table). Out: the function
// descriptors of .pseudo_probe_desc (GUID, CFG checksum, name) and a Table
// of the probes of .pseudo_probe: for each code address the probes placed
// there (index, type, attributes, discriminator), each in its node of the
// inline tree, whose path from the top-level function gives the probe's
// inline context as (GUID, call-site probe index) pairs.
//
// Layout of .pseudo_probe_desc, one record per function:
//
//	GUID uint64 (little-endian), HASH uint64, NAME_SIZE ULEB128, NAME bytes
//
// Layout of .pseudo_probe, one record per outlined function, nested for
// its inlinees (llvm/include/llvm/MC/MCPseudoProbe.h):
//
//	GUID uint64, NPROBES ULEB128, NINLINEES ULEB128,
//	NPROBES × { INDEX ULEB128,
//	            byte: TYPE (bits 0-3), ATTRIBUTES (bits 4-6), ADDRESS_DELTA (bit 7),
//	            SLEB128 delta from the previous probe's address, or uint64
//	            address (uint64 GUID of the split function for a sentinel probe),
//	            DISCRIMINATOR ULEB128 if ATTRIBUTES has HasDiscriminator },
//	NINLINEES × { CALL-SITE INDEX ULEB128, the inlinee's record }
//
// The first probe of a top-level record is a delta from the start of its
// function, found by GUID (the MD5 of the symbol's name) in the start
// addresses given to Decode; a delta from the previous probe otherwise.
// Sentinel probes (attribute 2) only move the address to the start of a
// split-off part of the function and are not kept.
//
// Decoding never trusts a count or a size: every read is bounds-checked
// and a damaged section gives a *FormatError with the section and byte
// offset, never a panic or an allocation sized by the input.
package pseudoprobe
