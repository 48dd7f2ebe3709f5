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
	relas := relaSections(ef)
	for i, s := range ef.Sections {
		if s.Type != SectionType {
			continue
		}
		found = true
		fs, err := readSection(ef, i, relas[i])
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

// relaSections maps the index of each section of a relocatable object to
// the SHT_RELA section that applies to it.
func relaSections(ef *elf.File) map[int]*elf.Section {
	if ef.Type != elf.ET_REL {
		return nil
	}
	relas := map[int]*elf.Section{}
	for _, s := range ef.Sections {
		if s.Type == elf.SHT_RELA {
			relas[int(s.Info)] = s
		}
	}
	return relas
}

// readSection reads section index of ef, whose addresses rela relocates
// in a relocatable object (nil: none does).
func readSection(ef *elf.File, index int, rela *elf.Section) ([]Func, error) {
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
		if rela != nil {
			addends, err := relocationAddends(ef, rela)
			if err != nil {
				return nil, err
			}
			opts.Reloc = func(off int) (uint64, bool) { a, ok := addends[uint64(off)]; return a, ok }
		}
	}
	return Decode(data, opts)
}

// relocationAddends maps the offsets that rela relocates to the
// relocations' addends. A relocatable object without SHT_RELA for the map
// (SHT_REL, as in i386 objects) leaves the addends in the map's bytes.
func relocationAddends(ef *elf.File, rela *elf.Section) (map[uint64]uint64, error) {
	data, err := rela.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rela.Name, err)
	}
	size := 24
	if ef.Class == elf.ELFCLASS32 {
		size = 12
	}
	addends := map[uint64]uint64{}
	for off := 0; off+size <= len(data); off += size {
		r, a := relaEntry(data[off:off+size], size)
		addends[r] = a
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
