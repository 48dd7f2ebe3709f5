package binary

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// explainELF gives the position of the damage when debug/elf could not
// read the file and said only "EOF": the program header, section header or
// section name table that runs past the end of a file of size bytes (size
// < 0: unknown). Other errors are returned as they are (debug/elf's
// FormatError names its offset).
func explainELF(r io.ReaderAt, size int64, err error) error {
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) || size < 0 {
		return err
	}
	var h [64]byte
	n, _ := r.ReadAt(h[:], 0)
	if n < 52 || string(h[:4]) != elf.ELFMAG {
		return fmt.Errorf("the ELF header (52 or 64 bytes) is cut short at byte %d: %w", n, err)
	}
	tabs := elfTables(h[:n])
	for _, t := range tabs {
		if t.count > 0 && (t.off > uint64(size) || t.count*t.entSize > uint64(size)-t.off) {
			return fmt.Errorf("the %s at offset %#x (%d entries of %d bytes) runs past the end of the file (%d bytes): %w",
				t.what, t.off, t.count, t.entSize, size, err)
		}
	}
	if off, len, ok := shstrtab(r, tabs, h[:n]); ok && (off > uint64(size) || len > uint64(size)-off) {
		return fmt.Errorf("the section name table at offset %#x (%d bytes) runs past the end of the file (%d bytes): %w", off, len, size, err)
	}
	return fmt.Errorf("a section runs past the end of the file (%d bytes): %w", size, err)
}

type elfTable struct {
	what                string
	off, count, entSize uint64
	shstrndx            byte
}

// elfTables reads where the program and section header tables lie.
func elfTables(h []byte) []elfTable {
	var o binary.ByteOrder = binary.LittleEndian
	if h[elf.EI_DATA] == byte(elf.ELFDATA2MSB) {
		o = binary.BigEndian
	}
	if h[elf.EI_CLASS] == byte(elf.ELFCLASS64) && len(h) >= 64 {
		return []elfTable{
			{what: "program header table", off: o.Uint64(h[32:]), entSize: uint64(o.Uint16(h[54:])), count: uint64(o.Uint16(h[56:]))},
			{what: "section header table", off: o.Uint64(h[40:]), entSize: uint64(o.Uint16(h[58:])), count: uint64(o.Uint16(h[60:])),
				shstrndx: byte(o.Uint16(h[62:]))},
		}
	}
	return []elfTable{
		{what: "program header table", off: uint64(o.Uint32(h[28:])), entSize: uint64(o.Uint16(h[42:])), count: uint64(o.Uint16(h[44:]))},
		{what: "section header table", off: uint64(o.Uint32(h[32:])), entSize: uint64(o.Uint16(h[46:])), count: uint64(o.Uint16(h[48:])),
			shstrndx: byte(o.Uint16(h[50:]))},
	}
}

// shstrtab reads the offset and size of the section name table from its
// section header.
func shstrtab(r io.ReaderAt, tabs []elfTable, h []byte) (off, size uint64, ok bool) {
	sh := tabs[1]
	if sh.count == 0 || uint64(sh.shstrndx) >= sh.count {
		return 0, 0, false
	}
	var e [64]byte
	if n, _ := r.ReadAt(e[:min(sh.entSize, 64)], int64(sh.off+uint64(sh.shstrndx)*sh.entSize)); uint64(n) < min(sh.entSize, 64) {
		return 0, 0, false
	}
	var o binary.ByteOrder = binary.LittleEndian
	if h[elf.EI_DATA] == byte(elf.ELFDATA2MSB) {
		o = binary.BigEndian
	}
	if h[elf.EI_CLASS] == byte(elf.ELFCLASS64) {
		return o.Uint64(e[24:]), o.Uint64(e[32:]), true
	}
	return uint64(o.Uint32(e[16:])), uint64(o.Uint32(e[20:])), true
}
