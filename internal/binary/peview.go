package binary

import (
	"bytes"
	"cmp"
	"debug/elf"
	"debug/pe"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
)

// elfView is a PE file read as an ELF file (pe.go): head over its first
// bytes, the file itself up to tailAt (zeros past its end), then tail.
type elfView struct {
	file   io.ReaderAt
	head   []byte
	tail   []byte
	tailAt int64
}

func (v *elfView) Size() int64 { return v.tailAt + int64(len(v.tail)) }

func (v *elfView) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		m, err := v.readPart(p[n:], off+int64(n))
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// readPart reads from the part of the view holding off, up to its end.
func (v *elfView) readPart(p []byte, off int64) (int, error) {
	switch {
	case off < 0:
		return 0, fmt.Errorf("negative offset %d", off)
	case off < int64(len(v.head)):
		return copy(p, v.head[off:]), nil
	case off < v.tailAt:
		p = p[:min(int64(len(p)), v.tailAt-off)]
		n, err := v.file.ReadAt(p, off)
		if err == io.EOF { // between the end of the file and the tail
			clear(p[n:])
			return len(p), nil
		}
		return n, err
	case off < v.Size():
		return copy(p, v.tail[off-v.tailAt:]), nil
	}
	return 0, io.EOF
}

// elfTablesOf are the ELF tables the view adds, and their offsets.
type elfTablesOf struct {
	buf                  bytes.Buffer
	shstrtab, strtab     []byte
	syms                 []elf.Sym64
	firstGlobal          uint32
	symOff, phOff, shOff uint64
}

// elfView builds the view of the PE file r of size bytes (< 0 unknown).
func (img *peImage) elfView(r io.ReaderAt, size int64) (*elfView, error) {
	if len(img.sections) > int(elf.SHN_LORESERVE)-4 {
		return nil, fmt.Errorf("PE image with %d sections (at most %d can be read)", len(img.sections), int(elf.SHN_LORESERVE)-4)
	}
	tailAt := alignUp(uint64(max(size, elfHeaderSize)), 8)
	for _, s := range img.sections {
		tailAt = max(tailAt, alignUp(s.offset+s.fileSize(), 8))
	}
	t := &elfTablesOf{}
	img.symbols(t)
	progs := img.progs()
	shdrs := img.sectionHeaders(t, tailAt, len(progs))
	t.write(progs, shdrs)
	head := img.header(t, tailAt, len(progs), len(shdrs))
	return &elfView{file: r, head: head, tail: t.buf.Bytes(), tailAt: int64(tailAt)}, nil
}

func alignUp(n, a uint64) uint64 { return (n + a - 1) &^ (a - 1) }

// symbols fills the symbol table and its names from the COFF symbols of
// the PE sections: at the section's address plus their value, the size of
// each the distance to the next symbol of its section (or to its end), as
// LLVM sizes COFF symbols (computeSymbolSizes). Local symbols come first.
func (img *peImage) symbols(t *elfTablesOf) {
	t.strtab = []byte{0}
	t.syms = []elf.Sym64{{}}
	var in []*pe.Symbol
	for _, s := range img.file.Symbols {
		if s.SectionNumber > 0 && int(s.SectionNumber) <= len(img.sections) {
			in = append(in, s)
		}
	}
	sizes := img.symbolSizes(in)
	slices.SortStableFunc(in, func(a, b *pe.Symbol) int { return cmp.Compare(bindOf(a), bindOf(b)) })
	for _, s := range in {
		if bindOf(s) != elf.STB_LOCAL && t.firstGlobal == 0 {
			t.firstGlobal = uint32(len(t.syms))
		}
		t.syms = append(t.syms, img.symbol(s, sizes[s], t))
	}
	if t.firstGlobal == 0 {
		t.firstGlobal = uint32(len(t.syms))
	}
}

func (img *peImage) symbol(s *pe.Symbol, size uint64, t *elfTablesOf) elf.Sym64 {
	sec := img.sections[s.SectionNumber-1]
	name := uint32(len(t.strtab))
	t.strtab = append(append(t.strtab, s.Name...), 0)
	return elf.Sym64{Name: name, Info: elf.ST_INFO(bindOf(s), img.symbolType(s)), Shndx: uint16(s.SectionNumber),
		Value: sec.addr + uint64(s.Value), Size: size}
}

// symbolSizes sizes each symbol by the next address of its section.
func (img *peImage) symbolSizes(syms []*pe.Symbol) map[*pe.Symbol]uint64 {
	sorted := slices.Clone(syms)
	slices.SortStableFunc(sorted, func(a, b *pe.Symbol) int {
		return cmp.Or(cmp.Compare(a.SectionNumber, b.SectionNumber), cmp.Compare(a.Value, b.Value))
	})
	sizes := make(map[*pe.Symbol]uint64, len(syms))
	for i, s := range sorted {
		end := img.sections[s.SectionNumber-1].memSize
		for _, next := range sorted[i+1:] {
			if next.SectionNumber != s.SectionNumber {
				break
			}
			if next.Value > s.Value {
				end = uint64(next.Value)
				break
			}
		}
		if end > uint64(s.Value) {
			sizes[s] = end - uint64(s.Value)
		}
	}
	return sizes
}

// symbolType: a function (complex type IMAGE_SYM_DTYPE_FUNCTION, as
// clang marks them), else data outside code sections.
func (img *peImage) symbolType(s *pe.Symbol) elf.SymType {
	const dtypeFunction = 2
	switch {
	case s.Type>>4&3 == dtypeFunction:
		return elf.STT_FUNC
	case img.sections[s.SectionNumber-1].flags&elf.SHF_EXECINSTR != 0:
		return elf.STT_NOTYPE
	}
	return elf.STT_OBJECT
}

func bindOf(s *pe.Symbol) elf.SymBind {
	const (
		classExternal     = 2
		classWeakExternal = 105
	)
	switch s.StorageClass {
	case classExternal:
		return elf.STB_GLOBAL
	case classWeakExternal:
		return elf.STB_WEAK
	}
	return elf.STB_LOCAL
}

// progs are the segments of the loaded sections.
func (img *peImage) progs() []elf.Prog64 {
	var out []elf.Prog64
	for _, s := range img.sections {
		if s.flags&elf.SHF_ALLOC == 0 {
			continue
		}
		p := s.prog().ProgHeader
		out = append(out, elf.Prog64{Type: uint32(p.Type), Flags: uint32(p.Flags), Off: p.Off, Vaddr: p.Vaddr, Paddr: p.Paddr,
			Filesz: p.Filesz, Memsz: p.Memsz, Align: p.Align})
	}
	return out
}

// sectionHeaders are the null section, the PE sections, then .shstrtab,
// .symtab and .strtab, whose data the tables are laid out for (from
// tailAt); nprogs program headers follow the symbols.
func (img *peImage) sectionHeaders(t *elfTablesOf, tailAt uint64, nprogs int) []elf.Section64 {
	t.shstrtab = []byte{0}
	name := func(s string) uint32 {
		n := uint32(len(t.shstrtab))
		t.shstrtab = append(append(t.shstrtab, s...), 0)
		return n
	}
	shdrs := []elf.Section64{{}}
	for _, s := range img.sections {
		shdrs = append(shdrs, s.header(name(s.name)))
	}
	shstrtab := uint32(len(shdrs))
	names := [3]uint32{name(".shstrtab"), name(".symtab"), name(".strtab")}
	strOff := tailAt + uint64(len(t.shstrtab))
	t.symOff = alignUp(strOff+uint64(len(t.strtab)), 8)
	t.phOff = t.symOff + uint64(len(t.syms))*24
	t.shOff = t.phOff + uint64(nprogs)*56
	return append(shdrs,
		elf.Section64{Name: names[0], Type: uint32(elf.SHT_STRTAB), Off: tailAt, Size: uint64(len(t.shstrtab)), Addralign: 1},
		elf.Section64{Name: names[1], Type: uint32(elf.SHT_SYMTAB), Off: t.symOff, Size: uint64(len(t.syms)) * 24,
			Link: shstrtab + 2, Info: t.firstGlobal, Addralign: 8, Entsize: 24},
		elf.Section64{Name: names[2], Type: uint32(elf.SHT_STRTAB), Off: strOff, Size: uint64(len(t.strtab)), Addralign: 1})
}

func (s peSection) header(name uint32) elf.Section64 {
	h := elf.Section64{Name: name, Type: uint32(elf.SHT_PROGBITS), Flags: uint64(s.flags), Addr: s.addr, Off: s.offset,
		Size: s.size, Addralign: 1}
	if s.nobits {
		h.Type = uint32(elf.SHT_NOBITS)
	}
	return h
}

// write lays out the tables: .shstrtab, .strtab, the symbols, the program
// headers and the section headers, at the offsets sectionHeaders chose.
func (t *elfTablesOf) write(progs []elf.Prog64, shdrs []elf.Section64) {
	t.buf.Write(t.shstrtab)
	t.buf.Write(t.strtab)
	t.buf.Write(make([]byte, alignUp(uint64(t.buf.Len()), 8)-uint64(t.buf.Len())))
	for _, v := range []any{t.syms, progs, shdrs} {
		binary.Write(&t.buf, binary.LittleEndian, v) // a bytes.Buffer takes every write
	}
}

// header is the ELF header: the tables are at their offsets from tailAt.
func (img *peImage) header(t *elfTablesOf, tailAt uint64, nprogs, nshdrs int) []byte {
	typ := elf.ET_EXEC
	if img.file.Characteristics&pe.IMAGE_FILE_DLL != 0 {
		typ = elf.ET_DYN
	}
	h := elf.Header64{Type: uint16(typ), Machine: uint16(img.machine()), Version: uint32(elf.EV_CURRENT),
		Entry: img.entry(), Phoff: t.phOff, Shoff: t.shOff, Ehsize: elfHeaderSize, Phentsize: 56, Phnum: uint16(nprogs),
		Shentsize: 64, Shnum: uint16(nshdrs), Shstrndx: uint16(nshdrs - 3)}
	copy(h.Ident[:], elf.ELFMAG)
	h.Ident[elf.EI_CLASS], h.Ident[elf.EI_DATA], h.Ident[elf.EI_VERSION] = byte(elf.ELFCLASS64), byte(elf.ELFDATA2LSB), byte(elf.EV_CURRENT)
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, &h)
	return b.Bytes()
}

func (img *peImage) entry() uint64 {
	switch h := img.file.OptionalHeader.(type) {
	case *pe.OptionalHeader64:
		return img.imageBase + uint64(h.AddressOfEntryPoint)
	case *pe.OptionalHeader32:
		return img.imageBase + uint64(h.AddressOfEntryPoint)
	}
	return 0
}
