package main

import "encoding/binary"

// arm64BranchKind decodes the AArch64 branch instruction at the start of
// code (bit patterns of the Arm ARM's branch, exception and system group;
// written apart from internal/binary/arm64, which the traces test).
func arm64BranchKind(code []byte) BranchKind {
	if len(code) < 4 {
		return KindUnknown
	}
	w := binary.LittleEndian.Uint32(code)
	switch {
	case w>>26 == 0b100101: // BL
		return KindCall
	case w>>26 == 0b000101: // B
		return KindUncond
	case w>>24 == 0x54: // B.cond, BC.cond
		return KindCond
	case w>>25&0x3f == 0b011010, w>>25&0x3f == 0b011011: // CBZ, CBNZ, TBZ, TBNZ
		return KindCond
	case w&0xffe0001f == 0xd4000001: // SVC
		return KindSyscall
	case w&0xffc0001f == 0x5500001f: // RETAASPPC, RETABSPPC
		return KindRet
	case w>>25 == 0b1101011: // branch to register
		return registerBranchKind(w >> 21 & 0xf)
	}
	return KindUnknown
}

// registerBranchKind is the kind of a branch to a register by its opc
// field (with or without pointer authentication).
func registerBranchKind(opc uint32) BranchKind {
	switch opc {
	case 0b0000, 0b1000: // BR, BRAA, BRAB (and the Z forms)
		return KindInd
	case 0b0001, 0b1001: // BLR, BLRAA, BLRAB
		return KindIndCall
	case 0b0010, 0b0100, 0b0101: // RET, RETAA, RETAB; ERET, ERETAA, ERETAB; DRPS
		return KindRet
	}
	return KindUnknown
}
