package bbaddrmap

import (
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
)

// SectionType is SHT_LLVM_BB_ADDR_MAP.
const SectionType elf.SectionType = 0x6fff4c0a

// ErrNoMap is the error of a binary without the map.
var ErrNoMap = errors.New("no " + Section + " section: build with clang 19 or later and -fbasic-block-address-map")

// Open reads the map of the ELF file at path; errors name the file.
func Open(path string) ([]Func, error) {
	ef, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer ef.Close()
	funcs, err := Read(ef)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return funcs, nil
}

// Read reads every map section of ef: an executable or shared object has
// one; a relocatable object has one per function section, whose addresses
// are the addends of their relocations (offsets in the function's section,
// as llvm-readobj prints them).
func Read(ef *elf.File) ([]Func, error) {
	if ef.ByteOrder != binary.LittleEndian {
		return nil, errors.New(Section + ": big-endian ELF files are not supported")
	}
	var funcs []Func
	found := false
	for i, s := range ef.Sections {
		if s.Type != SectionType {
			continue
		}
		found = true
		fs, err := readSection(ef, i)
		if err != nil {
			return nil, err
		}
		funcs = append(funcs, fs...)
	}
	if !found {
		return nil, ErrNoMap
	}
	return funcs, nil
}

func readSection(ef *elf.File, index int) ([]Func, error) {
	s := ef.Sections[index]
	data, err := s.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	opts := Options{Name: s.Name, AddrSize: 8}
	if ef.Class == elf.ELFCLASS32 {
		opts.AddrSize = 4
	}
	if ef.Type == elf.ET_REL {
		opts.Name = fmt.Sprintf("%s (section %d)", s.Name, index)
		addends, err := relocationAddends(ef, index)
		if err != nil {
			return nil, err
		}
		if addends != nil {
			opts.Reloc = func(off int) (uint64, bool) { a, ok := addends[uint64(off)]; return a, ok }
		}
	}
	return Decode(data, opts)
}

// relocationAddends maps the offsets relocated in section target, by the
// SHT_RELA section that applies to it, to the relocations' addends; nil
// without such a section (SHT_REL, as in i386 objects, leaves the addends
// in the section's bytes).
func relocationAddends(ef *elf.File, target int) (map[uint64]uint64, error) {
	var addends map[uint64]uint64
	for _, s := range ef.Sections {
		if s.Type != elf.SHT_RELA || int(s.Info) != target {
			continue
		}
		addends = map[uint64]uint64{}
		data, err := s.Data()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		size := 24
		if ef.Class == elf.ELFCLASS32 {
			size = 12
		}
		for off := 0; off+size <= len(data); off += size {
			r, a := relaEntry(data[off:off+size], size)
			addends[r] = a
		}
	}
	return addends, nil
}

// relaEntry reads the offset and addend of an Elf64_Rela or Elf32_Rela.
func relaEntry(b []byte, size int) (offset, addend uint64) {
	le := binary.LittleEndian
	if size == 12 {
		return uint64(le.Uint32(b)), uint64(le.Uint32(b[8:]))
	}
	return le.Uint64(b), le.Uint64(b[16:])
}
