package binary

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
)

// pltSymbols names the PLT stubs `name@plt`, as objdump and perf do. Each
// stub jumps through a GOT slot; the relocation of that slot (JUMP_SLOT or
// GLOB_DAT) names the function. Stubs whose slot has no named relocation
// (PLT0) get no symbol. x86-64 stubs lie in .plt, .plt.sec and .plt.got;
// AArch64 stubs in .plt.
func pltSymbols(ef *elf.File) []Symbol {
	slots := gotSlotNames(ef)
	var out []Symbol
	for _, name := range []string{".plt", ".plt.sec", ".plt.got"} {
		s := ef.Section(name)
		if s == nil || s.Type != elf.SHT_PROGBITS {
			continue
		}
		data, err := s.Data()
		if err != nil {
			continue
		}
		var stubs []stub
		switch ef.Machine {
		case elf.EM_X86_64:
			stubs = x86Stubs(data, s.Addr, s.Entsize)
		case elf.EM_AARCH64:
			stubs = arm64Stubs(data, s.Addr)
		}
		for _, st := range stubs {
			if name := slots[st.slot]; name != "" {
				out = append(out, Symbol{Name: name + "@plt", Addr: st.addr, Size: st.size})
			}
		}
	}
	return out
}

// stub is a PLT entry: where it starts, its size and the GOT slot it
// jumps through.
type stub struct {
	addr, size, slot uint64
}

// x86Stubs walks the entries of an x86-64 PLT section (entsize bytes each,
// 16 if unset): each jumps through `jmp *disp(%rip)`, after an optional
// endbr64 or bnd prefix.
func x86Stubs(data []byte, addr, entsize uint64) []stub {
	size := entsize
	if size == 0 || size > 32 {
		size = 16
	}
	var out []stub
	for off := uint64(0); off+size <= uint64(len(data)); off += size {
		if slot, ok := jumpSlot(data[off:off+size], addr+off); ok {
			out = append(out, stub{addr + off, size, slot})
		}
	}
	return out
}

var ripJump = []byte{0xff, 0x25} // jmp *disp32(%rip)

// jumpSlot returns the GOT address an entry at addr jumps through.
func jumpSlot(entry []byte, addr uint64) (uint64, bool) {
	i := bytes.Index(entry, ripJump)
	if i < 0 || i+6 > len(entry) {
		return 0, false
	}
	disp := int32(binary.LittleEndian.Uint32(entry[i+2:]))
	return addr + uint64(i+6) + uint64(int64(disp)), true
}

// AArch64 PLT entries load their target from the GOT with
//
//	[bti c]
//	adrp x16, page of the slot
//	ldr  x17, [x16, #slot offset in the page]
//	add  x16, x16, #slot offset   (then autia1716 and/or br x17)
//
// The entry starts at the bti c when there is one (GNU ld's BTI PLT).
// Entries are 16 bytes, 24 with BTI or PAC: an entry's size is the
// distance to the next.
const (
	btiC      = 0xd503245f
	adrpMask  = 0x9f000000 // adrp, any register
	adrpValue = 0x90000000
	ldrX64    = 0x3e5 // bits 31:22 of ldr Xt, [Xn, #pimm]
)

// arm64Stubs finds the entries of an AArch64 .plt: each adrp directly
// followed by an ldr of a 64-bit register from its page.
func arm64Stubs(data []byte, addr uint64) []stub {
	var out []stub
	for off := 0; off+8 <= len(data); off += 4 {
		w, next := binary.LittleEndian.Uint32(data[off:]), binary.LittleEndian.Uint32(data[off+4:])
		if w&adrpMask != adrpValue || next>>22 != ldrX64 {
			continue
		}
		start := addr + uint64(off)
		if off >= 4 && binary.LittleEndian.Uint32(data[off-4:]) == btiC {
			start -= 4
		}
		out = append(out, stub{addr: start, slot: adrpPage(w, addr+uint64(off)) + uint64(next>>10&0xfff)<<3})
		off += 4
	}
	for i := range out {
		end := addr + uint64(len(data))
		if i+1 < len(out) {
			end = out[i+1].addr
		}
		out[i].size = end - out[i].addr
	}
	return out
}

// adrpPage is the page address that the adrp instruction w at pc computes.
func adrpPage(w uint32, pc uint64) uint64 {
	imm := int64(w>>5&0x7ffff)<<2 | int64(w>>29&3) // immhi:immlo, 21 bits
	imm = imm << 43 >> 43                          // sign-extend
	return pc&^0xfff + uint64(imm<<12)
}

// gotSlotNames maps GOT slot addresses to the symbol their JUMP_SLOT or
// GLOB_DAT relocation names.
func gotSlotNames(ef *elf.File) map[uint64]string {
	dyn, _ := ef.DynamicSymbols()
	names := map[uint64]string{}
	for _, sec := range ef.Sections {
		if sec.Type != elf.SHT_RELA {
			continue
		}
		data, err := sec.Data()
		if err != nil {
			continue
		}
		for i := 0; (i+1)*24 <= len(data); i++ {
			addSlotName(names, data[i*24:], dyn, ef)
		}
	}
	return names
}

func addSlotName(names map[uint64]string, rela []byte, dyn []elf.Symbol, ef *elf.File) {
	off, info := ef.ByteOrder.Uint64(rela), ef.ByteOrder.Uint64(rela[8:])
	sym := info >> 32
	if isSlotReloc(ef.Machine, uint32(info)) && sym > 0 && int(sym) <= len(dyn) {
		names[off] = dyn[sym-1].Name
	}
}

// isSlotReloc reports whether a relocation type fills a GOT slot that a
// PLT stub jumps through.
func isSlotReloc(m elf.Machine, typ uint32) bool {
	switch m {
	case elf.EM_X86_64:
		t := elf.R_X86_64(typ)
		return t == elf.R_X86_64_JMP_SLOT || t == elf.R_X86_64_GLOB_DAT
	case elf.EM_AARCH64:
		t := elf.R_AARCH64(typ)
		return t == elf.R_AARCH64_JUMP_SLOT || t == elf.R_AARCH64_GLOB_DAT
	}
	return false
}
