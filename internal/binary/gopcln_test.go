package binary

import (
	"encoding/binary"
	"testing"
)

// pclnBuilder writes a pclntab in Go 1.20's layout, for tests: one
// function per call of add, each with a line table, a file table and an
// inline tree index table.
type pclnBuilder struct {
	names, files, pctab, funcs []byte
	entries                    []uint32
	gofunc                     []byte
}

func le32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// table codes (pc end offset, value) pairs as a pc-value table.
func (b *pclnBuilder) table(pairs ...int32) uint32 {
	if len(b.pctab) == 0 {
		b.pctab = []byte{0} // offset 0 is no table
	}
	off := uint32(len(b.pctab))
	val, pc := int32(-1), int32(0)
	for i := 0; i < len(pairs); i += 2 {
		d := pairs[i+1] - val
		b.pctab = binary.AppendUvarint(b.pctab, uint64(d<<1^d>>31))
		b.pctab = binary.AppendUvarint(b.pctab, uint64(pairs[i]-pc))
		val, pc = pairs[i+1], pairs[i]
	}
	b.pctab = append(b.pctab, 0)
	return off
}

func (b *pclnBuilder) name(s string) uint32 {
	off := uint32(len(b.names))
	b.names = append(append(b.names, s...), 0)
	return off
}

// add adds a function at entry offset; inl, when set, is its inline tree
// index table and tree its inline tree (16-byte entries).
func (b *pclnBuilder) add(entry uint32, name string, startLine, funcID uint32, lines, files, inl uint32, tree []byte) {
	b.entries = append(b.entries, entry, uint32(len(b.funcs)))
	rec := le32(le32(nil, entry), b.name(name))
	rec = le32(le32(le32(rec, 0), 0), 0) // args, deferreturn, pcsp
	rec = le32(le32(rec, files), lines)
	npcdata, nfuncdata := uint32(0), uint32(0)
	if tree != nil {
		npcdata, nfuncdata = 3, 4
	}
	rec = le32(le32(le32(rec, npcdata), 0), startLine) // cuOffset 0
	rec = append(rec, byte(funcID), 0, 0, byte(nfuncdata))
	if tree != nil {
		rec = le32(le32(le32(rec, 0), 0), inl)
		rec = le32(le32(le32(le32(rec, ^uint32(0)), ^uint32(0)), ^uint32(0)), uint32(len(b.gofunc)))
		b.gofunc = append(b.gofunc, tree...)
	}
	b.funcs = append(b.funcs, rec...)
}

// bytes returns the pclntab, the functions ending at end.
func (b *pclnBuilder) bytes(end uint32) []byte {
	nfunc := len(b.entries) / 2
	functab := make([]byte, 0, (nfunc+1)*8)
	for i := 0; i < nfunc; i++ {
		functab = le32(le32(functab, b.entries[2*i]), b.entries[2*i+1]+uint32((nfunc+1)*8))
	}
	functab = le32(le32(functab, end), 0)
	cutab := le32(le32(nil, 0), uint32(len("a.go\x00")))
	files := []byte("a.go\x00b.go\x00")
	hdr := le32(nil, go120Magic)
	hdr = append(hdr, 0, 0, 1, 8)
	parts := [][]byte{b.names, cutab, files, b.pctab, append(functab, b.funcs...)}
	words := []uint64{uint64(nfunc), 2, 0}
	off := uint64(8 + 8*8)
	for _, p := range parts {
		words = append(words, off)
		off += uint64(len(p))
	}
	for _, w := range words {
		hdr = binary.LittleEndian.AppendUint64(hdr, w)
	}
	for _, p := range parts {
		hdr = append(hdr, p...)
	}
	return hdr
}

// inlinedCall is an inline tree entry.
func inlinedCall(funcID uint8, nameOff uint32, parentPC int32, startLine uint32) []byte {
	return le32(le32(le32(append([]byte{funcID}, 0, 0, 0), nameOff), uint32(parentPC)), startLine)
}

// callee is the name offset of the inlined function of testGoLines.
var callee uint32

func testGoLines(t testing.TB) *GoLines {
	var b pclnBuilder
	lines := b.table(4, 10, 8, 12, 16, 11)
	files := b.table(4, 0, 8, 1, 16, 0)
	inl := b.table(4, -1, 8, 0, 16, -1)
	callee = b.name("pkg.callee")
	b.add(0, "pkg.f", 9, 0, lines, files, inl, inlinedCall(0, callee, 2, 20))
	b.add(16, "pkg.(*T).M", 1, 7, b.table(16, 1), b.table(16, 0), 0, nil)
	b.add(32, "pkg.(*U).M", 1, 7, b.table(16, 1), b.table(16, 0), 0, nil)
	tab, err := newGoLines(b.bytes(48), 0x1000, b.gofunc)
	if err != nil || tab == nil {
		t.Fatalf("newGoLines: %v, %v", tab, err)
	}
	return tab
}

// TestGoLines decodes a pclntab built by hand: functions, line and file
// tables, the inline tree, and the funcID many functions share taken as
// the wrappers'.
func TestGoLines(t *testing.T) {
	tab := testGoLines(t)
	fn, ok := tab.FuncAt(0x1005)
	if !ok || fn.Name != "pkg.f" || fn.Entry != 0x1000 || fn.End != 0x1010 || fn.StartLine != 9 || fn.Wrapper {
		t.Fatalf("FuncAt(0x1005) = %+v, %v", fn, ok)
	}
	lines, files, inl := tab.Values(fn, GoTableLine), tab.Values(fn, GoTableFile), tab.Values(fn, GoTableInlTree)
	for _, c := range []struct {
		pc         uint64
		line, call int32
		file       string
	}{
		{0x1000, 10, -1, "a.go"}, {0x1003, 10, -1, "a.go"}, {0x1004, 12, 0, "b.go"}, {0x100f, 11, -1, "a.go"}, {0x1010, -1, -1, ""},
	} {
		if l, i, f := lines.At(c.pc), inl.At(c.pc), tab.File(fn, files.At(c.pc)); l != c.line || i != c.call || f != c.file {
			t.Errorf("at %#x: line %d, inline index %d, file %q; want %d, %d, %q", c.pc, l, i, f, c.line, c.call, c.file)
		}
	}
	call, ok := tab.Inlined(fn, 0)
	if want := (GoInlined{NameOff: callee, StartLine: 20, ParentPC: 0x1002}); !ok || call != want || tab.FuncName(call.NameOff) != "pkg.callee" {
		t.Errorf("Inlined(0) = %+v, %v; want %+v", call, ok, want)
	}
	if _, ok := tab.Inlined(fn, -1); ok {
		t.Error("Inlined(-1) found an entry")
	}
	if w, _ := tab.FuncAt(0x1010); !w.Wrapper || w.Name != "pkg.(*T).M" {
		t.Errorf("FuncAt(0x1010) = %+v, want the wrapper pkg.(*T).M", w)
	}
	for _, pc := range []uint64{0xfff, 0x1030} {
		if fn, ok := tab.FuncAt(pc); ok {
			t.Errorf("FuncAt(%#x) = %+v, want none", pc, fn)
		}
	}
}

// FuzzGoLines feeds mutated pclntabs to every query: nothing may panic
// or run without bound.
func FuzzGoLines(f *testing.F) {
	var b pclnBuilder
	b.add(0, "f", 1, 0, b.table(8, 3), b.table(8, 0), b.table(8, 0), inlinedCall(0, 0, 0, 1))
	f.Add(b.bytes(16), b.gofunc)
	f.Fuzz(func(t *testing.T, pcln, gofunc []byte) {
		tab, err := newGoLines(pcln, 0x1000, gofunc)
		if err != nil || tab == nil {
			return
		}
		for pc := uint64(0x1000); pc < 0x1040; pc += 3 {
			fn, ok := tab.FuncAt(pc)
			if !ok {
				continue
			}
			for table := GoTableSP; table <= GoTableInlTree; table++ {
				v := tab.Values(fn, table)
				tab.File(fn, v.At(pc))
				tab.Inlined(fn, v.At(pc))
			}
		}
	})
}
