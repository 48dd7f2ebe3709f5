package binary

import (
	"debug/elf"
	"debug/pe"
	"errors"
	"fmt"
	"io"
)

// A PE image (a Windows .exe or .dll, as lld-link or link.exe write it) is
// read through an ELF view of its bytes: the ELF header laid over the DOS
// header, the file itself, and ELF tables after its end describing it. Each
// PE section is the ELF section of the same index and name at the same
// file offset, at its virtual address (image base + RVA); the COFF symbol
// table, which lld-link keeps with /debug:dwarf, is .symtab; sections that
// are loaded are PT_LOAD segments. The rest of the package, and the stages
// after it, then read a PE image as they read an ELF file: its code, its
// symbols, its DWARF.
//
// What differs is where the code wants to be loaded, which follows
// llvm-profgen (ProfiledBinary::setPreferredTextSegmentAddresses for COFF):
// the preferred base is the image base, and the text "segment offset" an
// mmap event must carry is the RVA of the first code section. A sample
// address a in a mapping at address m with that page offset is then at
// image base + (a - m).

// elfHeaderSize is the size of an ELF64 header: the bytes of the PE file
// the view hides.
const elfHeaderSize = 64

// IsPE reports whether r starts with the DOS header of a PE image ("MZ").
func IsPE(r io.ReaderAt) bool {
	var magic [2]byte
	_, err := r.ReadAt(magic[:], 0)
	return err == nil && string(magic[:]) == "MZ"
}

// peImage is what the ELF view is made of.
type peImage struct {
	file      *pe.File
	imageBase uint64
	sections  []peSection
}

// peSection is one PE section as an ELF section and, when loaded, segment.
type peSection struct {
	name          string
	addr, offset  uint64
	size, memSize uint64 // in the file; in memory
	flags         elf.SectionFlag
	nobits        bool
}

// openPE reads the PE image in r (size bytes, < 0 unknown) as an ELF
// file.
func openPE(r io.ReaderAt, size int64) (*elf.File, *peImage, error) {
	img, err := readPE(r)
	if err != nil {
		return nil, nil, err
	}
	view, err := img.elfView(r, size)
	if err != nil {
		return nil, nil, err
	}
	ef, err := elf.NewFile(view)
	if err != nil {
		return nil, nil, fmt.Errorf("the ELF view of the PE image: %w", err)
	}
	return ef, img, nil
}

func readPE(r io.ReaderAt) (*peImage, error) {
	f, err := pe.NewFile(r)
	if err != nil {
		return nil, fmt.Errorf("PE image: %w", err)
	}
	img := &peImage{file: f}
	switch h := f.OptionalHeader.(type) {
	case *pe.OptionalHeader64:
		img.imageBase = h.ImageBase
	case *pe.OptionalHeader32:
		img.imageBase = uint64(h.ImageBase)
	}
	if img.imageBase == 0 {
		return nil, errors.New("PE image without an image base (llvm-profgen: not a COFF image)")
	}
	for i, s := range f.Sections {
		ps, err := img.section(s)
		if err != nil {
			return nil, fmt.Errorf("PE section %d (%s): %w", i+1, s.Name, err)
		}
		img.sections = append(img.sections, ps)
	}
	return img, nil
}

// section describes s as an ELF section. Its size in the file is LLVM's
// (COFFObjectFile::getSectionSize): the smaller of its virtual size and
// its raw data, padded to the file alignment.
func (img *peImage) section(s *pe.Section) (peSection, error) {
	ps := peSection{name: s.Name, addr: img.imageBase + uint64(s.VirtualAddress), memSize: uint64(s.VirtualSize)}
	ps.flags = sectionFlags(s.Characteristics)
	if s.Offset == 0 || s.Size == 0 {
		ps.nobits, ps.size = true, ps.memSize
		return ps, nil
	}
	if s.Offset < elfHeaderSize {
		return ps, fmt.Errorf("its data at offset %#x overlaps the headers", s.Offset)
	}
	ps.offset, ps.size = uint64(s.Offset), uint64(min(s.VirtualSize, s.Size))
	return ps, nil
}

func sectionFlags(c uint32) elf.SectionFlag {
	var f elf.SectionFlag
	if c&pe.IMAGE_SCN_MEM_DISCARDABLE == 0 {
		f |= elf.SHF_ALLOC
	}
	if c&pe.IMAGE_SCN_MEM_WRITE != 0 {
		f |= elf.SHF_WRITE
	}
	if c&pe.IMAGE_SCN_CNT_CODE != 0 { // llvm-profgen's text sections
		f |= elf.SHF_EXECINSTR
	}
	return f
}

// layout is llvm-profgen's for COFF: the image base is the preferred
// base and the first loadable address; the RVA of the first code section
// is the text segment's offset.
func (img *peImage) layout() (layout, error) {
	l := layout{firstLoadable: img.imageBase}
	for _, s := range img.sections {
		if s.flags&elf.SHF_EXECINSTR == 0 {
			continue
		}
		if len(l.exec) == 0 {
			l.exec = append(l.exec, Segment{Vaddr: img.imageBase, Offset: s.addr - img.imageBase})
		}
		l.execProgs = append(l.execProgs, s.prog().ProgHeader)
	}
	if len(l.exec) == 0 {
		return l, ErrNoExecSegment
	}
	return l, nil
}

// prog is the segment loading s.
func (s peSection) prog() elf.Prog {
	flags := elf.PF_R
	if s.flags&elf.SHF_WRITE != 0 {
		flags |= elf.PF_W
	}
	if s.flags&elf.SHF_EXECINSTR != 0 {
		flags |= elf.PF_X
	}
	return elf.Prog{ProgHeader: elf.ProgHeader{Type: elf.PT_LOAD, Flags: flags, Off: s.offset, Vaddr: s.addr, Paddr: s.addr,
		Filesz: s.fileSize(), Memsz: s.memSize, Align: pageSize}}
}

// fileSize is the size of s in the file, 0 for one without data.
func (s peSection) fileSize() uint64 {
	if s.nobits {
		return 0
	}
	return s.size
}

// machine is the ELF machine of the PE image's.
func (img *peImage) machine() elf.Machine {
	switch img.file.Machine {
	case pe.IMAGE_FILE_MACHINE_AMD64:
		return elf.EM_X86_64
	case pe.IMAGE_FILE_MACHINE_ARM64:
		return elf.EM_AARCH64
	case pe.IMAGE_FILE_MACHINE_I386:
		return elf.EM_386
	case pe.IMAGE_FILE_MACHINE_ARMNT:
		return elf.EM_ARM
	case pe.IMAGE_FILE_MACHINE_RISCV32, pe.IMAGE_FILE_MACHINE_RISCV64, pe.IMAGE_FILE_MACHINE_RISCV128:
		return elf.EM_RISCV
	}
	return elf.EM_NONE
}
