package main

import (
	"debug/elf"
	"fmt"
	"hash/fnv"
	"path/filepath"
)

const pageSize = 0x1000

// segment is an executable PT_LOAD of the profiled binary.
type segment struct {
	Vaddr, Memsz, Off, Filesz uint64
	data                      []byte
}

// binaryInfo is what the generator needs to know about the profiled ELF
// binary: whether it is position independent, its entry point, the span of
// its loadable segments and the bytes of its executable segments.
type binaryInfo struct {
	Machine    elf.Machine // EM_X86_64 or EM_AARCH64
	PIE        bool
	Entry      uint64
	Lo, Hi     uint64 // [Lo, Hi): span of all PT_LOAD vaddrs
	Exec       []segment
	BuildID    []byte    // NT_GNU_BUILD_ID, nil if none
	Funcs      []funcSym // function symbols by address, for call-stack frames
	inodeStamp uint64    // stands in for the inode number in MMAP2 lines
}

func openBinary(path string) (*binaryInfo, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 && f.Machine != elf.EM_AARCH64 {
		return nil, fmt.Errorf("%s: not an x86-64 or AArch64 binary", path)
	}
	b := &binaryInfo{Machine: f.Machine, PIE: f.Type == elf.ET_DYN, Entry: f.Entry, Lo: ^uint64(0)}
	for _, p := range f.Progs {
		if p.Type != elf.PT_LOAD {
			continue
		}
		b.Lo = min(b.Lo, p.Vaddr&^(pageSize-1))
		b.Hi = max(b.Hi, pageUp(p.Vaddr+p.Memsz))
		if p.Flags&elf.PF_X == 0 {
			continue
		}
		data := make([]byte, p.Filesz)
		if _, err := p.ReadAt(data, 0); err != nil {
			return nil, fmt.Errorf("%s: read segment at %#x: %w", path, p.Vaddr, err)
		}
		b.Exec = append(b.Exec, segment{p.Vaddr, p.Memsz, p.Off, p.Filesz, data})
	}
	if len(b.Exec) == 0 {
		return nil, fmt.Errorf("%s: no executable segment", path)
	}
	b.BuildID = gnuBuildID(f)
	b.Funcs = funcSyms(f)
	h := fnv.New32a()
	h.Write([]byte(filepath.Base(path)))
	b.inodeStamp = uint64(h.Sum32() % 10000000)
	return b, nil
}

// gnuBuildID reads the GNU build id note (.note.gnu.build-id).
func gnuBuildID(f *elf.File) []byte {
	s := f.Section(".note.gnu.build-id")
	if s == nil {
		return nil
	}
	d, err := s.Data()
	if err != nil || len(d) < 16 {
		return nil
	}
	namesz, descsz := f.ByteOrder.Uint32(d), f.ByteOrder.Uint32(d[4:])
	off := 12 + (namesz+3)&^3
	if f.ByteOrder.Uint32(d[8:]) != 3 || uint64(off)+uint64(descsz) > uint64(len(d)) {
		return nil
	}
	return d[off : off+descsz]
}

func pageUp(a uint64) uint64 { return (a + pageSize - 1) &^ (pageSize - 1) }

// code returns the bytes at vaddr in an executable segment (up to 15).
func (b *binaryInfo) code(vaddr uint64) []byte {
	for _, s := range b.Exec {
		if vaddr >= s.Vaddr && vaddr < s.Vaddr+uint64(len(s.data)) {
			d := s.data[vaddr-s.Vaddr:]
			return d[:min(len(d), 15)]
		}
	}
	return nil
}

// execMappings are the MMAP2 records the kernel reports for the binary's
// executable segments when the binary is loaded with the given load bias
// (0 for a non-PIE binary): page-aligned address, length and file offset.
func (b *binaryInfo) execMappings(bias uint64, path string) []mapping {
	var ms []mapping
	for _, s := range b.Exec {
		start := s.Vaddr &^ (pageSize - 1)
		ms = append(ms, mapping{
			Addr:  bias + start,
			Len:   pageUp(s.Vaddr+s.Filesz) - start,
			Pgoff: s.Off &^ (pageSize - 1),
			Maj:   0xfe,
			Ino:   b.inodeStamp,
			Prot:  "r-xp",
			Path:  path,
		})
	}
	return ms
}

// kindAt decodes the branch instruction at vaddr.
func (b *binaryInfo) kindAt(vaddr uint64) BranchKind {
	if b.Machine == elf.EM_AARCH64 {
		return arm64BranchKind(b.code(vaddr))
	}
	return branchKind(b.code(vaddr))
}

// branchKind decodes the x86-64 branch instruction at the start of code.
func branchKind(code []byte) BranchKind {
	i := 0
	for i < len(code) && isPrefix(code[i]) {
		i++
	}
	if i >= len(code) {
		return KindUnknown
	}
	op := code[i]
	var next byte
	if i+1 < len(code) {
		next = code[i+1]
	}
	switch {
	case op == 0xe8:
		return KindCall
	case op == 0xe9 || op == 0xeb:
		return KindUncond
	case op >= 0x70 && op <= 0x7f, op >= 0xe0 && op <= 0xe3:
		return KindCond
	case op == 0xc3 || op == 0xc2:
		return KindRet
	case op == 0x0f && next >= 0x80 && next <= 0x8f:
		return KindCond
	case op == 0x0f && next == 0x05:
		return KindSyscall
	case op == 0xff && (next>>3)&7 == 2 || op == 0xff && (next>>3)&7 == 3:
		return KindIndCall
	case op == 0xff && (next>>3)&7 == 4 || op == 0xff && (next>>3)&7 == 5:
		return KindInd
	}
	return KindUnknown
}

func isPrefix(c byte) bool {
	switch c {
	case 0xf0, 0xf2, 0xf3, 0x2e, 0x36, 0x3e, 0x26, 0x64, 0x65, 0x66, 0x67:
		return true
	}
	return c&0xf0 == 0x40 // REX
}
