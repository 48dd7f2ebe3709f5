package x86

import "encoding/binary"

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

// BranchCandidates finds, without decoding, every byte of text (code at
// address base) that DirectTarget could read as the opcode of a direct
// call, jump or conditional branch, and calls visit with its address and
// the target it would have, when want accepts the target. Instruction
// boundaries are unknown here, so some candidates are bytes inside other
// instructions; the branches DirectTarget decodes to a wanted target are
// all among them.
func BranchCandidates(text []byte, base uint64, want func(target uint64) bool, visit func(at, target uint64)) {
	for p := 0; p < len(text); p++ {
		n := opcodeLen[text[p]]
		if n == 0 {
			continue
		}
		rel, size, ok := relOperand(text[p:], n)
		if !ok {
			continue
		}
		at := base + uint64(p)
		if t := at + uint64(size) + uint64(rel); want(t) {
			visit(at, t)
		}
	}
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
