package x86

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
)

// DirectTarget returns the target of the direct call, jump or conditional
// branch whose bytes are b, at address end - len(b); false for any other
// instruction.
func DirectTarget(b []byte, end uint64) (uint64, bool) {
	for len(b) > 0 && isBranchPrefix(b[0]) {
		b = b[1:]
	}
	var rel int64
	switch {
	case len(b) == 5 && (b[0] == 0xe8 || b[0] == 0xe9):
		rel = int64(int32(binary.LittleEndian.Uint32(b[1:])))
	case len(b) == 2 && (b[0] == 0xeb || b[0]&0xf0 == 0x70):
		rel = int64(int8(b[1]))
	case len(b) == 6 && b[0] == 0x0f && b[1]&0xf0 == 0x80:
		rel = int64(int32(binary.LittleEndian.Uint32(b[2:])))
	default:
		return 0, false
	}
	return end + uint64(rel), true
}

// isBranchPrefix reports the prefixes compilers put on direct branches:
// bnd (f2), branch hints and notrack (2e, 3e), and operand or address
// size (66, 67) used as padding.
func isBranchPrefix(c byte) bool {
	switch c {
	case 0xf2, 0x2e, 0x3e, 0x66, 0x67:
		return true
	}
	return false
}

// opcodeLen is the length of a direct branch from its first opcode byte
// (0x0f: the first of two), 0 for other bytes.
var opcodeLen = func() (t [256]uint8) {
	t[0xe8], t[0xe9], t[0xeb], t[0x0f] = 5, 5, 2, 6
	for b := 0x70; b <= 0x7f; b++ {
		t[b] = 2
	}
	return t
}()

// relOperand reads the displacement of a direct branch of length n whose
// opcode starts b.
func relOperand(b []byte, n uint8) (rel int64, size int, ok bool) {
	if len(b) < int(n) {
		return 0, 0, false
	}
	switch n {
	case 2:
		return int64(int8(b[1])), 2, true
	case 5:
		return int64(int32(binary.LittleEndian.Uint32(b[1:]))), 5, true
	}
	if b[1]&0xf0 != 0x80 {
		return 0, 0, false
	}
	return int64(int32(binary.LittleEndian.Uint32(b[2:]))), 6, true
}

// BranchCandidates finds, without decoding, every byte of text (code at
// address base) that DirectTarget could read as the opcode of a direct
// call, jump or conditional branch to one of targets (sorted, without
// repeats), and calls visit with its address and that target, in address
// order. Instruction boundaries are unknown here, so some candidates are
// bytes inside other instructions; the branches DirectTarget decodes to a
// target are all among them.
//
// It does not look at every byte: the opcodes of the branches with a
// 32-bit displacement are found eight bytes at a time, those of the
// branches with an 8-bit one, which reach 128 bytes around them, only
// near a target.
func BranchCandidates(text []byte, base uint64, targets []uint64, visit func(at, target uint64)) {
	if len(targets) == 0 {
		return
	}
	want := newTargetSet(targets)
	rel32, rel8 := rel32Candidates(nil, text, base, want), rel8Candidates(nil, text, base, targets)
	for len(rel32) > 0 || len(rel8) > 0 {
		var c candidate
		if len(rel8) == 0 || len(rel32) > 0 && rel32[0].at < rel8[0].at {
			c, rel32 = rel32[0], rel32[1:]
		} else {
			c, rel8 = rel8[0], rel8[1:]
		}
		visit(c.at, c.target)
	}
}

// candidate is where a branch to target could start.
type candidate struct{ at, target uint64 }

// rel32Candidates appends to found, in address order, the candidates of
// want whose opcode has a 32-bit displacement (e8, e9, 0f 8x): text is
// read eight bytes at a time, and only the bytes equal to e8, e9 or 0f
// are looked at.
func rel32Candidates(found []candidate, text []byte, base uint64, want targetSet) []candidate {
	const ones = 0x0101010101010101
	p := 0
	for ; p+8 <= len(text); p += 8 {
		x := binary.LittleEndian.Uint64(text[p:])
		m := zeroBytes(x&(0xfe*ones)^0xe8*ones) | zeroBytes(x^0x0f*ones)
		for ; m != 0; m &= m - 1 {
			found = rel32Candidate(found, text, base, p+bits.TrailingZeros64(m)/8, want)
		}
	}
	for ; p < len(text); p++ {
		if b := text[p]; b&0xfe == 0xe8 || b == 0x0f {
			found = rel32Candidate(found, text, base, p, want)
		}
	}
	return found
}

// zeroBytes returns x with the top bit of each zero byte set, every other
// bit clear.
func zeroBytes(x uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	return ^((x&low7 + low7) | x | low7)
}

// rel32Candidate appends to found the candidate whose opcode starts
// text[p:], when want has its target.
func rel32Candidate(found []candidate, text []byte, base uint64, p int, want targetSet) []candidate {
	if rel, size, ok := relOperand(text[p:], opcodeLen[text[p]]); ok {
		at := base + uint64(p)
		if t := at + uint64(size) + uint64(rel); want.has(t) {
			found = append(found, candidate{at, t})
		}
	}
	return found
}

// rel8Candidates appends to found, in address order, the candidates of
// targets whose opcode has an 8-bit displacement: those in the 256 bytes
// from which a target is in reach.
func rel8Candidates(found []candidate, text []byte, base uint64, targets []uint64) []candidate {
	start := len(found)
	for _, t := range targets {
		for k := range uint64(256) {
			// A 2-byte branch at t-129+k reaches t with the displacement 127-k.
			p := t - 129 + k - base
			if p < uint64(len(text)) && p+1 < uint64(len(text)) && opcodeLen[text[p]] == 2 && int8(text[p+1]) == int8(127-k) {
				found = append(found, candidate{base + p, t})
			}
		}
	}
	slices.SortFunc(found[start:], func(a, b candidate) int { return cmp.Compare(a.at, b.at) })
	return slices.Compact(found)
}

// targetSet tells whether an address is one of a sorted list of targets:
// a bitmap of the 64-byte blocks holding one first (folded over
// targetBlocks bits, however far apart the targets are), then a binary
// search.
type targetSet struct {
	sorted []uint64
	blocks *[targetBlocks / 64]uint64
}

// targetBlocks is the size of targetSet's bitmap: 32 KiB, one bit per
// block of the 16 MiB around any address.
const targetBlocks = 1 << 18

func newTargetSet(sorted []uint64) targetSet {
	s := targetSet{sorted: sorted, blocks: new([targetBlocks / 64]uint64)}
	for _, t := range sorted {
		b := t / 64 % targetBlocks
		s.blocks[b/64] |= 1 << (b % 64)
	}
	return s
}

func (s targetSet) has(t uint64) bool {
	if b := t / 64 % targetBlocks; s.blocks[b/64]&(1<<(b%64)) == 0 {
		return false
	}
	_, ok := slices.BinarySearch(s.sorted, t)
	return ok
}
