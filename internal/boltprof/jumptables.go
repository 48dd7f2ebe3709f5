package boltprof

import (
	"debug/elf"
	"encoding/binary"
	"slices"

	"github.com/profgen/profgen/internal/binary/insn"
)

// Jump tables: BOLT starts a block at every case label of a function's
// jump tables. Two layouts are read:
//   - PIC (clang and gcc, PIE and DSO): `lea table(%rip), %reg` and 4-byte
//     entries holding case - table;
//   - absolute (non-PIE): `jmp *table(,%reg,8)`, 8-byte entries holding the
//     case address.
//
// A table runs while its entries land on instructions of the function and
// until the next table starts.

// tableRef is a jump table candidate referenced by an instruction.
type tableRef struct {
	addr uint64
	pic  bool // 4-byte relative entries; else 8-byte absolute
}

// tableRefOf returns the table an instruction may reference.
func tableRefOf(b []byte, end uint64, kind insn.Kind) (tableRef, bool) {
	switch {
	case len(b) == 7 && (b[0] == 0x48 || b[0] == 0x4c) && b[1] == 0x8d && b[2]&0xc7 == 0x05:
		return tableRef{end + uint64(int64(int32(binary.LittleEndian.Uint32(b[3:])))), true}, true
	case kind == insn.IndirectJump:
		for len(b) > 0 && b[0]&0xf0 == 0x40 { // REX
			b = b[1:]
		}
		if len(b) == 7 && b[0] == 0xff && b[1] == 0x24 && b[2]&0xc7 == 0xc5 {
			return tableRef{uint64(binary.LittleEndian.Uint32(b[3:])), false}, true
		}
	}
	return tableRef{}, false
}

// tableEntries reads the case labels of f's jump tables (offsets from f's
// start), by table address; isInst says whether an offset starts an
// instruction.
func tableEntries(ef *elf.File, f *Func, refs []tableRef, isInst func(uint64) bool) map[uint64][]uint64 {
	slices.SortFunc(refs, func(a, b tableRef) int { return compareU64(a.addr, b.addr) })
	refs = slices.Compact(refs)
	entries := map[uint64][]uint64{}
	for i, r := range refs {
		limit := ^uint64(0)
		if i+1 < len(refs) {
			limit = refs[i+1].addr
		}
		if es := readTable(ef, f, r, limit, isInst); len(es) > 0 {
			entries[r.addr] = es
		}
	}
	return entries
}

// readTable reads the entries of one table up to limit. An entry at the
// function's end (a case of __builtin_unreachable) is no label, and the
// table goes on after it, as BOLT's analyzeJumpTable reads it.
func readTable(ef *elf.File, f *Func, r tableRef, limit uint64, isInst func(uint64) bool) []uint64 {
	sec := dataSection(ef, r.addr)
	if sec == nil {
		return nil
	}
	size := uint64(8)
	if r.pic {
		size = 4
	}
	var labels []uint64
	var buf [8]byte
	for a := r.addr; a+size <= min(limit, sec.Addr+sec.Size); a += size {
		if _, err := sec.ReadAt(buf[:size], int64(a-sec.Addr)); err != nil {
			break
		}
		target := binary.LittleEndian.Uint64(buf[:])
		if r.pic {
			target = r.addr + uint64(int64(int32(binary.LittleEndian.Uint32(buf[:4]))))
		}
		if target == f.Addr+f.Size {
			continue
		}
		if target < f.Addr || target > f.Addr+f.Size || !isInst(target-f.Addr) {
			break
		}
		labels = append(labels, target-f.Addr)
	}
	return labels
}

// dataSection is the allocated, non-executable section with bytes in the
// file that holds addr.
func dataSection(ef *elf.File, addr uint64) *elf.Section {
	for _, s := range ef.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && s.Flags&elf.SHF_EXECINSTR == 0 && s.Type == elf.SHT_PROGBITS &&
			addr >= s.Addr && addr < s.Addr+s.Size {
			return s
		}
	}
	return nil
}
