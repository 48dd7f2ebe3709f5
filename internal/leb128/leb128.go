// Package leb128 decodes and encodes LEB128 numbers, the variable-length
// integers of DWARF, of LLVM's profile formats and of pseudo-probe
// sections: seven bits a byte, low bits first, the high bit set on every
// byte but the last. It is the one decoder of them: the readers around
// it keep their own positions and errors.
//
// In: bytes. Out: the value, the number of bytes it took, and whether it
// fits in 64 bits.
package leb128

import "encoding/binary"

// Uint decodes the unsigned LEB128 number at the start of b (bytes, or a
// string holding them, such as a map key). v is its low
// 64 bits, as debug/dwarf reads it. n is the number of bytes it took, 0
// when b ends before the number does (v is then what was read).
func Uint[Bytes ~[]byte | ~string](b Bytes) (v uint64, n int) {
	for i := 0; i < len(b); i++ {
		c := b[i]
		v |= uint64(c&0x7f) << uint(7*i) // 0 from the 64th bit on
		if c < 0x80 {
			return v, i + 1
		}
	}
	return v, 0
}

// Int decodes the signed LEB128 number at the start of b: v is its low 64
// bits, sign-extended from the last byte's bit 6 when it has fewer, as
// debug/dwarf reads it; n as for Uint.
func Int(b []byte) (v int64, n int) {
	for i, c := range b {
		v |= int64(c&0x7f) << uint(7*i)
		if c < 0x80 {
			if c&0x40 != 0 {
				v |= -1 << uint(7*i+7) // 0 from the 64th bit on
			}
			return v, i + 1
		}
	}
	return v, 0
}

// UintOverflows tells that the unsigned LEB128 number at the start of b
// has a bit set past the 64th, in the bytes up to its end or b's: the
// number LLVM's decodeULEB128 refuses ("uleb128 too big for uint64").
// Zero bits past the 64th are padding.
func UintOverflows(b []byte) bool {
	for i, c := range b {
		if i == 9 && c&0x7e != 0 || i > 9 && c&0x7f != 0 {
			return true
		}
		if c < 0x80 {
			return false
		}
	}
	return false
}

// IntOverflows tells that the bits past the 64th of the signed LEB128
// number at the start of b, in the bytes up to its end or b's, are not
// all copies of the 64th (bit 0 of byte 9): the number LLVM's
// decodeSLEB128 refuses ("sleb128 too big for int64").
func IntOverflows(b []byte) bool {
	for i, c := range b {
		if i >= 9 {
			if s := c & 0x7f; s != 0 && s != 0x7f || s != b[9]&0x7f {
				return true
			}
		}
		if c < 0x80 {
			return false
		}
	}
	return false
}

// AppendUint appends the shortest unsigned LEB128 encoding of v (the
// bytes of Go's binary.AppendUvarint: the same encoding).
func AppendUint(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

// AppendInt appends the shortest signed LEB128 encoding of v (not Go's
// zigzag varint).
func AppendInt(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
