package binary

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
)

// pltSymbols names the PLT stubs `name@plt`, as objdump and perf do. Each
// stub of .plt, .plt.sec and .plt.got jumps through a GOT slot
// (`jmp *disp(%rip)`, after an optional endbr64 or bnd prefix); the
// relocation of that slot (R_X86_64_JUMP_SLOT or R_X86_64_GLOB_DAT) names
// the function. Stubs whose slot has no named relocation (PLT0) get no
// symbol.
func pltSymbols(ef *elf.File) []Symbol {
	slots := gotSlotNames(ef)
	var out []Symbol
	for _, name := range []string{".plt", ".plt.sec", ".plt.got"} {
		if s := ef.Section(name); s != nil && s.Type == elf.SHT_PROGBITS {
			out = append(out, stubSymbols(s, slots)...)
		}
	}
	return out
}

// stubSymbols walks the entries of one PLT section.
func stubSymbols(s *elf.Section, slots map[uint64]string) []Symbol {
	data, err := s.Data()
	if err != nil {
		return nil
	}
	size := s.Entsize
	if size == 0 || size > 32 {
		size = 16
	}
	var out []Symbol
	for off := uint64(0); off+size <= uint64(len(data)); off += size {
		slot, ok := jumpSlot(data[off:off+size], s.Addr+off)
		if name := slots[slot]; ok && name != "" {
			out = append(out, Symbol{Name: name + "@plt", Addr: s.Addr + off, Size: size})
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
			addSlotName(names, data[i*24:], dyn, ef.ByteOrder)
		}
	}
	return names
}

func addSlotName(names map[uint64]string, rela []byte, dyn []elf.Symbol, bo binary.ByteOrder) {
	off, info := bo.Uint64(rela), bo.Uint64(rela[8:])
	sym, typ := info>>32, elf.R_X86_64(uint32(info))
	if (typ == elf.R_X86_64_JMP_SLOT || typ == elf.R_X86_64_GLOB_DAT) && sym > 0 && int(sym) <= len(dyn) {
		names[off] = dyn[sym-1].Name
	}
}
