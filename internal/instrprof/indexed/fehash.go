package indexed

import "github.com/profgen/profgen/internal/instrprof"

// Front-end (clang -fprofile-instr-generate) function hashes come in two
// versions that an indexed file tells apart only by its own version: clang
// 22 reads the hashes of a version-13 file as its version 4, which clears
// the top 4 bits, and those of a version-12 file as version 3, which keeps
// them (CodeGenPGO.cpp, getPGOHashVersion). A raw profile does not say which
// clang wrote it, but its hashes often do: a hash of a function of more than
// ten hashed statements is an MD5 sum, whose top 4 bits version 3 leaves
// set in 15 of 16 functions; a hash of a smaller function packs 6-bit
// statement kinds into at most 60 bits, the same in both versions.

// topHashBits are the bits version 4 clears (FUNC_HASH_MASK's complement).
const topHashBits = uint64(0xf) << 60

// FrontEndHashes counts a front-end profile's records by what their
// hashes say of the clang that made them.
type FrontEndHashes struct {
	// V3 records have a top bit set: made by clang 21 or older.
	V3 int
	// V4Like records have their top bits clear but look like MD5 sums, as
	// clang 22 writes them (or, one time in 16, clang 21).
	V4Like int
}

// CountFrontEndHashes reads the hashes of p's records; an IR profile has
// none of interest (its hashes are not the front end's).
func CountFrontEndHashes(p *instrprof.Profile) FrontEndHashes {
	var h FrontEndHashes
	if p.Kind&instrprof.KindIR != 0 {
		return h
	}
	for _, f := range p.Funcs() {
		switch {
		case f.Hash&topHashBits != 0:
			h.V3++
		case looksLikeMD5(f.Hash):
			h.V4Like++
		}
	}
	return h
}

// maxStmtKind bounds the statement kinds a packed hash holds
// (PGOHash::HashType has about 35; 6 bits each).
const maxStmtKind = 47

// looksLikeMD5 tells a hash with a 6-bit field above every statement kind:
// not a packed hash. An MD5 sum has one in 94% of cases.
func looksLikeMD5(hash uint64) bool {
	for ; hash != 0; hash >>= 6 {
		if hash&0x3f > maxStmtKind {
			return true
		}
	}
	return false
}

// V4Evidence is how many MD5-like hashes with clear top bits, and none
// with a set one, make clang 22's hashes certain: version 3 leaves them so
// one time in 16^3.
const V4Evidence = 3

// Clang21 says the hashes are clang 21's or older (version 3).
func (h FrontEndHashes) Clang21() bool { return h.V3 > 0 }

// Clang22 says the hashes are clang 22's (version 4).
func (h FrontEndHashes) Clang22() bool { return h.V3 == 0 && h.V4Like >= V4Evidence }
