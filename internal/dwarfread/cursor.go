package dwarfread

import (
	"encoding/binary"

	"github.com/profgen/profgen/internal/leb128"
)

// Cursor reads the little-endian numbers of a line table: past the end
// of B it reads 0 and sets Bad, which stays set.
type Cursor struct {
	B   []byte
	Pos int
	Bad bool
}

// Bytes returns the next n bytes; past the end, n zero bytes (n is
// always small: a header's opcode lengths or a fixed-size number).
func (c *Cursor) Bytes(n int) []byte {
	if c.Bad || n > len(c.B)-c.Pos {
		c.Bad = true
		return make([]byte, n)
	}
	b := c.B[c.Pos : c.Pos+n]
	c.Pos += n
	return b
}

// Skip moves past n bytes.
func (c *Cursor) Skip(n uint64) {
	if c.Bad || n > uint64(len(c.B)-c.Pos) {
		c.Bad = true
		return
	}
	c.Pos += int(n)
}

func (c *Cursor) U8() uint8 {
	if c.Pos >= len(c.B) {
		c.Bad = true
		return 0
	}
	c.Pos++
	return c.B[c.Pos-1]
}

func (c *Cursor) U16() uint16 { return binary.LittleEndian.Uint16(c.Bytes(2)) }
func (c *Cursor) U32() uint32 { return binary.LittleEndian.Uint32(c.Bytes(4)) }
func (c *Cursor) U64() uint64 { return binary.LittleEndian.Uint64(c.Bytes(8)) }

// Offset reads an offset of offSize (4 or 8) bytes.
func (c *Cursor) Offset(offSize int) uint64 {
	if offSize == 8 {
		return c.U64()
	}
	return uint64(c.U32())
}

// ULEB and SLEB read a LEB128 number as debug/dwarf does: bits beyond 64
// are lost; one that does not end within B is bad.
func (c *Cursor) ULEB() uint64 { return readLEB128(c, leb128.Uint) }
func (c *Cursor) SLEB() int64  { return readLEB128(c, leb128.Int) }

func readLEB128[T uint64 | int64](c *Cursor, decode func([]byte) (T, int)) T {
	v, n := decode(c.B[c.Pos:])
	if n == 0 {
		c.Bad = true
		return 0
	}
	c.Pos += n
	return v
}
