// Package bbaddrmap reads the basic-block address map clang leaves in a
// binary built with -fbasic-block-address-map (section .llvm_bb_addr_map,
// type SHT_LLVM_BB_ADDR_MAP), the map Propeller lays out blocks with.
//
// In: an ELF file, or the bytes of one such section. Out: one Func per
// function: its address ranges (the first holds the entry; more when
// -fbasic-block-sections split the function), each with its blocks in
// address order: ID, offset from the range's base, size, the metadata bits
// (return, tail call, EH pad, can fall through, indirect branch), the end
// offsets of its calls and its hash; and the PGO analysis data when the
// compiler added it (-mllvm -pgo-analysis-map=...).
//
// Layout (llvm/lib/Object/ELF.cpp decodeBBAddrMapImpl, LLVM 19 to 22),
// one record per function, numbers little-endian, ULEB128 unless said:
//
//	VERSION u8 (2 to 5: clang 19 writes 2, clang 22 writes 5)
//	FEATURES u8 before version 5, u16 from it (bits: Features)
//	RANGES, only with MultiRange (at least 1)
//	RANGES × { ADDRESS (u64; u32 in a 32-bit ELF), NBLOCKS,
//	           NBLOCKS × { ID, OFFSET from the end of the previous block,
//	                       with CallSites: NCALLS, NCALLS × delta of the
//	                       call's end from the previous one (the first from
//	                       the block's start),
//	                       SIZE from the last call's end, METADATA,
//	                       with BlockHash: HASH u64 } (none with OmitBlocks) }
//	with FuncEntryCount: ENTRY COUNT
//	with BlockFreq or BranchProb, for every block of every range:
//	  with BlockFreq: FREQUENCY; with PostLinkCFG: POST-LINK FREQUENCY,
//	  with BranchProb: NSUCCS, NSUCCS × { ID, PROBABILITY,
//	                                       with PostLinkCFG: POST-LINK COUNT }
//
// A block cloned by a path-cloning profile (a `p` line) keeps the ID of
// the block it was cloned from: an ID can appear twice in one function,
// the clone in a later range.
//
// Decoding never trusts a count: every read is bounds-checked, nothing is
// allocated by a count before the data it counts is read, and a damaged
// section gives one *sectionreader.FormatError naming the section and the
// byte offset. A binary without the section, or with a version outside 2
// to 5, gets an error naming the clang flag that writes the map.
package bbaddrmap
