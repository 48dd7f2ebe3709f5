package boltprof

import (
	"cmp"
	"debug/elf"
	"fmt"
	"testing"
)

// testELF has a .plt, .text at 0x1000-0x1400, a .stubtext at 0x1400-0x1410
// and .rodata at 0x2000.
func testELF() *elf.File {
	sec := func(name string, addr, size uint64, flags elf.SectionFlag) *elf.Section {
		return &elf.Section{SectionHeader: elf.SectionHeader{Name: name, Type: elf.SHT_PROGBITS, Addr: addr, Size: size, Flags: flags}}
	}
	code := elf.SHF_ALLOC | elf.SHF_EXECINSTR
	return &elf.File{Sections: []*elf.Section{
		{}, sec(".plt", 0xf00, 0x40, code), sec(".text", 0x1000, 0x400, code), sec(".stubtext", 0x1400, 0x10, code),
		sec(".rodata", 0x2000, 0x100, elf.SHF_ALLOC), sec(".comment", 0, 0x20, 0),
	}}
}

// Section indexes of testELF.
const (
	secPLT elf.SectionIndex = iota + 1
	secText
	secStub
	secRodata
	secComment
)

func sym(name string, typ elf.SymType, bind elf.SymBind, sec elf.SectionIndex, value, size uint64) elf.Symbol {
	return elf.Symbol{Name: name, Info: elf.ST_INFO(bind, typ), Section: sec, Value: value, Size: size}
}

// TestDiscoverSymbols checks BOLT's functions of a symbol table: names,
// sizes and how far each reaches (name addr size maxsize); the .plt,
// with no stubs, is one pseudo function.
func TestDiscoverSymbols(t *testing.T) {
	const (
		fn, obj, none, section, file = elf.STT_FUNC, elf.STT_OBJECT, elf.STT_NOTYPE, elf.STT_SECTION, elf.STT_FILE
		local, global                = elf.STB_LOCAL, elf.STB_GLOBAL
	)
	for _, tc := range []struct {
		name    string
		machine elf.Machine // 0: x86-64
		syms    []elf.Symbol
		want    []string
	}{
		{"local functions of one name count from 1 by address; a global keeps its name", 0,
			[]elf.Symbol{sym("a.c", file, local, elf.SHN_ABS, 0, 0), sym("helper", fn, local, secText, 0x1100, 0x10),
				sym("helper", fn, local, secText, 0x1000, 0x10), sym("main", fn, global, secText, 0x1200, 0x20)},
			[]string{"helper/1 1000 10 100", "helper/2 1100 10 100", "main 1200 20 200"}},
		{"code with no symbol but its section's: the section names it", 0,
			[]elf.Symbol{sym("", section, local, secStub, 0x1400, 0), sym("", section, local, secText, 0x1000, 0),
				sym("main", fn, global, secText, 0x1000, 0x20)},
			[]string{"main 1000 20 400", ".stubtext/1 1400 10 10"}},
		{"a global untyped label is a function and bounds the one before", 0,
			[]elf.Symbol{sym("main", fn, global, secText, 0x1000, 0x20), sym("untyped", none, global, secText, 0x1040, 0)},
			[]string{"main 1000 20 40", "untyped 1040 3c0 3c0"}},
		{"a local untyped label lies inside a function of size 0, or a function's bytes", 0,
			[]elf.Symbol{sym("frame_dummy", fn, local, secText, 0x1000, 0), sym("loop", none, local, secText, 0x1010, 0),
				sym("main", fn, global, secText, 0x1100, 0x80), sym(".Lcase", none, local, secText, 0x1120, 0)},
			[]string{"frame_dummy/1 1000 100 100", "main 1100 80 300"}},
		{"an object in code is a function; .L names get PG", 0,
			[]elf.Symbol{sym(".Lhelper", fn, local, secText, 0x1000, 0x10), sym("table", obj, global, secText, 0x1010, 0x30)},
			[]string{"PG.Lhelper/1 1000 10 10", "table 1010 30 3f0"}},
		{"a function symbol inside another is no function and no bound", 0,
			[]elf.Symbol{sym("outer", fn, global, secText, 0x1000, 0x100), sym("inner", fn, global, secText, 0x1080, 0x10)},
			[]string{"outer 1000 100 400"}},
		{"AArch64 mapping symbols are left out", elf.EM_AARCH64,
			[]elf.Symbol{sym("$x", none, local, secPLT, 0xf00, 0), sym("$x.1", none, local, secText, 0x1000, 0),
				sym("$d", none, local, secText, 0x1100, 0), sym("main", fn, global, secText, 0x1010, 0x20)},
			[]string{"main 1010 20 3f0"}},
		{"data, absolute, undefined and non-allocated symbols make no function; the names of those in memory count", 0,
			[]elf.Symbol{sym("buf", none, local, elf.SHN_ABS, 0x10, 0), sym("buf", obj, local, secRodata, 0x2000, 8),
				sym("buf", fn, local, secText, 0x1000, 0x10), sym("x", obj, global, secComment, 0x10, 4),
				sym("buf", obj, local, secRodata, 0x1f00, 4), sym("printf", fn, global, elf.SHN_UNDEF, 0, 0)},
			[]string{"buf/2 1000 10 400"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ef := testELF()
			ef.Machine = cmp.Or(tc.machine, elf.EM_X86_64)
			d := discoverSymbols(ef, tc.syms)
			d.addPLT(ef, nil)
			fs := d.sorted()
			d.setMaxSizes(fs)
			var got []string
			for _, f := range fs {
				got = append(got, fmt.Sprintf("%s %x %x %x", f.Name, f.Addr, f.Size, f.MaxSize))
			}
			want := append([]string{"__BOLT_PSEUDO_.plt f00 40 40"}, tc.want...)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("functions:\n got %q\nwant %q", got, want)
			}
		})
	}
}
