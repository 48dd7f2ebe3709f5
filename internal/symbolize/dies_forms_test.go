package symbolize

import (
	"debug/dwarf"
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"

	"github.com/profgen/profgen/internal/leb128"
)

// TestDIEReaderIndexedForms checks, against debug/dwarf, the indexed forms
// of DWARF 5 that clang's binaries leave out (DW_FORM_strx, strx3, strx4,
// addrx4) and 64-bit DWARF, on a unit written here: a compile unit with
// two subprograms, whose names are strx, whose addresses addrx and whose
// ranges rnglistx.
func TestDIEReaderIndexedForms(t *testing.T) {
	for _, offSize := range []int{4, 8} {
		s := indexedFormsUnit(offSize)
		d, err := dwarf.New(s.abbrev, nil, nil, s.info, nil, nil, nil, s.str)
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range map[string][]byte{".debug_str_offsets": s.strOffsets, ".debug_addr": s.addr, ".debug_rnglists": s.rnglists} {
			if err := d.AddSection(name, b); err != nil {
				t.Fatal(err)
			}
		}
		if read, units := compareUnits(t, s, d); read != 1 || units != 1 {
			t.Errorf("offset size %d: %d of %d units read, want 1 of 1", offSize, read, units)
		}
		want := []string{"f [[0x1100 0x1180]]", "g [[0x1204 0x1208]]", "g [[0x1300 0x1310]]"}
		if got := namesAndRanges(t, s); !reflect.DeepEqual(got, want) {
			t.Errorf("offset size %d: %q, want %q", offSize, got, want)
		}
	}
}

// namesAndRanges lists the name and ranges of each DIE of the unit at the
// start of s that has a name.
func namesAndRanges(t *testing.T, s *dieSections) []string {
	r, ok := newDIEReader(s, 0, map[uint64]abbrevTable{})
	if !ok {
		t.Fatal("unit not read")
	}
	var out []string
	for {
		e, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e == nil {
			return out
		}
		if name, ok := e.Val(dwarf.AttrName).(string); ok {
			rs, err := r.ranges(e)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%s %#x", name, rs))
		}
	}
}

// dwarfWriter writes DWARF values little-endian, offsets in offSize bytes.
type dwarfWriter struct {
	b       []byte
	offSize int
}

func (w *dwarfWriter) u8(v ...byte) *dwarfWriter { w.b = append(w.b, v...); return w }
func (w *dwarfWriter) u16(v uint16) *dwarfWriter {
	w.b = binary.LittleEndian.AppendUint16(w.b, v)
	return w
}
func (w *dwarfWriter) u32(v uint32) *dwarfWriter {
	w.b = binary.LittleEndian.AppendUint32(w.b, v)
	return w
}
func (w *dwarfWriter) u64(v uint64) *dwarfWriter {
	w.b = binary.LittleEndian.AppendUint64(w.b, v)
	return w
}
func (w *dwarfWriter) uleb(v uint64) *dwarfWriter { w.b = leb128.AppendUint(w.b, v); return w }
func (w *dwarfWriter) str(s string) *dwarfWriter  { w.b = append(append(w.b, s...), 0); return w }
func (w *dwarfWriter) off(v uint64) *dwarfWriter {
	if w.offSize == 8 {
		return w.u64(v)
	}
	return w.u32(uint32(v))
}

// length writes the initial length of a contribution of n bytes after it.
func (w *dwarfWriter) length(n int) *dwarfWriter {
	if w.offSize == 8 {
		return w.u32(0xffffffff).u64(uint64(n))
	}
	return w.u32(uint32(n))
}

// section is a DWARF 5 contribution: its initial length, version 5, then
// head and body; base is where body starts.
func (w *dwarfWriter) section(head, body []byte) (base uint64) {
	w.length(2 + len(head) + len(body)).u16(5).u8(head...)
	base = uint64(len(w.b))
	w.u8(body...)
	return base
}

// indexedFormsUnit writes the sections of TestDIEReaderIndexedForms.
func indexedFormsUnit(offSize int) *dieSections {
	nw := func() *dwarfWriter { return &dwarfWriter{offSize: offSize} }
	str := nw().u8(0).str("f").str("_Z1fv").str("g").b
	var strOffs, addrs, rngs dwarfWriter
	strOffs.offSize, rngs.offSize = offSize, offSize
	strBase := strOffs.section([]byte{0, 0}, nw().off(1).off(3).off(9).b)
	addrBase := addrs.section([]byte{8, 0}, nw().u64(0x1000).u64(0x1100).u64(0x1200).b)
	// The offsets table of two lists, then the lists: start+length, and
	// base address, offset pair (from index 2).
	lists := nw().u8(rleStartLength).u64(0x1300).uleb(0x10).u8(rleEndOfList).
		u8(rleBaseAddressx).uleb(2).u8(rleOffsetPair).uleb(0x4).uleb(0x8).u8(rleEndOfList).b
	table := nw().off(uint64(2 * offSize)).off(uint64(2*offSize + 11)).b
	rnglistsBase := rngs.section(binary.LittleEndian.AppendUint32([]byte{8, 0}, 2), append(table, lists...))

	abbrev := nw().
		uleb(1).uleb(uint64(dwarf.TagCompileUnit)).u8(1).
		uleb(uint64(dwarf.AttrStrOffsetsBase)).uleb(formSecOffset).
		uleb(uint64(dwarf.AttrAddrBase)).uleb(formSecOffset).
		uleb(uint64(dwarf.AttrRnglistsBase)).uleb(formSecOffset).
		uleb(uint64(dwarf.AttrLowpc)).uleb(formAddrx).u8(0, 0).
		uleb(2).uleb(uint64(dwarf.TagSubprogram)).u8(1).
		uleb(uint64(dwarf.AttrName)).uleb(formStrx).
		uleb(uint64(dwarf.AttrLinkageName)).uleb(formStrx4).
		uleb(uint64(dwarf.AttrLowpc)).uleb(formAddrx4).
		uleb(uint64(dwarf.AttrHighpc)).uleb(formData4).u8(0, 0).
		uleb(3).uleb(uint64(dwarf.TagInlinedSubroutine)).u8(0).
		uleb(uint64(dwarf.AttrName)).uleb(formStrx3).
		uleb(uint64(dwarf.AttrRanges)).uleb(formRnglistx).u8(0, 0).
		uleb(4).uleb(uint64(dwarf.TagSubprogram)).u8(0).
		uleb(uint64(dwarf.AttrName)).uleb(formStrx1).
		uleb(uint64(dwarf.AttrRanges)).uleb(formRnglistx).u8(0, 0).
		u8(0).b

	dies := nw().
		uleb(1).off(strBase).off(addrBase).off(rnglistsBase).uleb(0).
		uleb(2).uleb(0).u32(1).u32(1).u32(0x80).
		uleb(3).u8(2, 0, 0).uleb(1).
		u8(0).
		uleb(4).u8(2).uleb(0).
		u8(0).b
	var info dwarfWriter
	info.offSize = offSize
	info.section(nw().u8(utCompile, 8).off(0).b, dies)
	return &dieSections{info: info.b, abbrev: abbrev, str: str, strOffsets: strOffs.b, addr: addrs.b, rnglists: rngs.b}
}
