package binary

import "debug/elf"

// pageSize is the page size llvm-profgen 19 assumes when it rounds segment
// addresses and offsets down (ProfiledBinary::setPreferredTextSegmentAddresses).
const pageSize = 0x1000

// Segment is an executable PT_LOAD segment, its address and offset rounded
// down to the page as the loader maps it.
type Segment struct {
	Vaddr  uint64 // p_vaddr rounded down to the page
	Offset uint64 // p_offset rounded down to the page
}

// layout is where the executable segments want to be loaded.
type layout struct {
	firstLoadable uint64           // first non-zero PT_LOAD vaddr, page-rounded
	exec          []Segment        // executable PT_LOADs in program header order
	execProgs     []elf.ProgHeader // the same, as the program headers say
}

func readLayout(progs []*elf.Prog) (layout, error) {
	var l layout
	for _, p := range progs {
		if p.Type != elf.PT_LOAD {
			continue
		}
		if l.firstLoadable == 0 { // a segment at 0 does not count, as in llvm-profgen
			l.firstLoadable = p.Vaddr &^ (pageSize - 1)
		}
		if p.Flags&elf.PF_X != 0 {
			l.exec = append(l.exec, Segment{Vaddr: p.Vaddr &^ (pageSize - 1), Offset: p.Off &^ (pageSize - 1)})
			l.execProgs = append(l.execProgs, p.ProgHeader)
		}
	}
	if len(l.exec) == 0 {
		return l, ErrNoExecSegment
	}
	return l, nil
}

// PreferredBase is the address the binary wants its first executable
// segment loaded at: that segment's p_vaddr rounded down to the page, as
// llvm-profgen 19 computes it. Canonical addresses are in this address
// space; the unsymbolized profile prints them as offsets from it.
func (f *File) PreferredBase() uint64 { return f.layout.exec[0].Vaddr }

// TextSegmentOffset is the file offset of the first executable segment,
// rounded down to the page: the page offset of the mmap that loads it.
func (f *File) TextSegmentOffset() uint64 { return f.layout.exec[0].Offset }

// FirstLoadableAddress is the first PT_LOAD's p_vaddr rounded down to the
// page (llvm-profgen's --use-first-loadable-segment-as-base); like
// llvm-profgen 19, it skips segments whose rounded address is 0, so for a
// PIE it is the second segment's.
func (f *File) FirstLoadableAddress() uint64 { return f.layout.firstLoadable }

// ExecSegments are the executable PT_LOAD segments in program header order.
func (f *File) ExecSegments() []Segment { return f.layout.exec }

// VaddrOfOffset maps a file offset inside an executable segment to its
// link-time virtual address: how a DSO-relative address perf printed (its
// map_ip, a file offset) becomes an address of the binary.
func (f *File) VaddrOfOffset(off uint64) (uint64, bool) {
	for _, p := range f.layout.execProgs {
		if off >= p.Off && off < p.Off+p.Filesz {
			return off - p.Off + p.Vaddr, true
		}
	}
	return 0, false
}

// OffsetOfVaddr maps a link-time virtual address inside an executable
// segment to its file offset, the inverse of VaddrOfOffset: how an ELF
// virtual address a profiler recorded becomes the offset perf would print.
func (f *File) OffsetOfVaddr(vaddr uint64) (uint64, bool) {
	for _, p := range f.layout.execProgs {
		if vaddr >= p.Vaddr && vaddr < p.Vaddr+p.Filesz {
			return vaddr - p.Vaddr + p.Off, true
		}
	}
	return 0, false
}

// ExecSpan is the link-time address range [start, limit) of the
// executable segments and the file offset of the first one.
func (f *File) ExecSpan() (start, limit, offset uint64) {
	first := f.layout.execProgs[0]
	start, offset = first.Vaddr, first.Off
	for _, p := range f.layout.execProgs {
		limit = max(limit, p.Vaddr+p.Memsz)
	}
	return start, limit, offset
}

// RuntimeBase says where the first executable segment was loaded, given an
// MMAP/MMAP2 event of this binary with address mmapAddr and page offset
// mmapPgoff. As in llvm-profgen 19 (PerfScriptReader::updateBinaryAddress)
// only the mapping of the text segment itself tells: ok is false for any
// other page offset. A runtime address a then maps to the canonical address
// a - base + PreferredBase() (see CanonicalAddr).
func (f *File) RuntimeBase(mmapAddr, mmapPgoff uint64) (base uint64, ok bool) {
	return runtimeBase(f.layout, mmapAddr, mmapPgoff)
}

func runtimeBase(l layout, mmapAddr, mmapPgoff uint64) (uint64, bool) {
	if mmapPgoff != l.exec[0].Offset {
		return 0, false
	}
	return mmapAddr, true
}

// CanonicalAddr maps a runtime address to the binary's preferred address
// space, given the runtime base from RuntimeBase (unsigned wrap-around, as
// llvm-profgen's canonicalizeVirtualAddress).
func (f *File) CanonicalAddr(runtimeAddr, runtimeBase uint64) uint64 {
	return runtimeAddr - runtimeBase + f.PreferredBase()
}

// ReadBuildID returns the GNU build id of the ELF file at path, nil if it
// has none, without reading more of it.
func ReadBuildID(path string) ([]byte, error) {
	ef, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer ef.Close()
	return BuildIDOf(ef)
}
