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
