package symbolize

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"testing"
)

// FuzzNew builds tables from arbitrary ELF bytes and queries them: bad
// DWARF must give an error, never a panic.
func FuzzNew(f *testing.F) {
	fuzzELF(f, func(ef *elf.File) {
		tab, err := newFromELF(ef)
		if err != nil {
			return
		}
		var buf []Frame
		for _, r := range tab.lines {
			buf = tab.Frames(r.addr, buf)
			tab.FuncRangeAt(r.addr)
		}
	})
}

// fuzzELF fuzzes use with the ELF files of arbitrary bytes, seeded with
// the small gcc binaries of internal/generate.
func fuzzELF(f *testing.F, use func(ef *elf.File)) {
	seeds, _ := filepath.Glob("../generate/testdata/gcc-*.bin")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if ef, err := elf.NewFile(bytes.NewReader(b)); err == nil {
			use(ef)
		}
	})
}

// FuzzNewLazy builds tables as the driver does, reading the DIEs from the
// sections themselves (Options.Info), from arbitrary ELF bytes, and looks
// up every address of the ELF's functions: an error or frames, never a
// panic or a hang.
func FuzzNewLazy(f *testing.F) {
	fuzzELF(f, func(ef *elf.File) {
		d, err := ef.DWARF()
		info := debugInfo(ef)
		if err != nil || info == nil {
			return
		}
		tab, err := New(d, Options{Info: info, Section: elfSection(ef), Symbols: elfSymbols(ef)})
		if err != nil {
			return
		}
		var addrs []uint64
		for _, s := range elfSymbols(ef) {
			addrs = append(addrs, s.Addr, s.Addr+s.Size/2)
		}
		tab.Prefetch(addrs)
		var buf []Frame
		for _, a := range addrs {
			buf = tab.Frames(a, buf)
			tab.FuncRangeAt(a)
		}
	})
}

// splitSeeds are the sections of the split-DWARF fixture's .dwo files and
// packages (cmd/profgen/testdata/split).
func splitSeeds(f *testing.F, file string, sections ...string) [][][]byte {
	var out [][][]byte
	for _, v := range []string{"dwarf4", "dwarf5"} {
		ef, err := elf.Open(filepath.Join("../../cmd/profgen/testdata/split", v, file))
		if err != nil {
			f.Fatal(err)
		}
		var secs [][]byte
		for _, name := range sections {
			var b []byte
			if s := ef.Section(name); s != nil {
				b, _ = s.Data()
			}
			secs = append(secs, b)
		}
		ef.Close()
		out = append(out, secs)
	}
	return out
}

// FuzzParseUnitIndex reads arbitrary package indexes: an error or an
// index, never a panic, and lookups stay in its tables.
func FuzzParseUnitIndex(f *testing.F) {
	for _, s := range splitSeeds(f, "prog.dwp", ".debug_cu_index") {
		f.Add(s[0])
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := parseUnitIndex(b)
		if err != nil {
			return
		}
		for id := range x.rows {
			x.lookup(id)
		}
	})
}

// FuzzSplitUnit reads a split unit from arbitrary .dwo sections and
// .debug_addr, as a .dwo file's unit: bad DWARF must give an error, never
// a panic.
func FuzzSplitUnit(f *testing.F) {
	for _, s := range splitSeeds(f, "a.dwo", ".debug_info.dwo", ".debug_abbrev.dwo", ".debug_str.dwo", ".debug_str_offsets.dwo", ".debug_rnglists.dwo") {
		f.Add(s[0], s[1], s[2], s[3], s[4], make([]byte, 256))
	}
	f.Fuzz(func(t *testing.T, info, abbrev, str, strOffsets, rnglists, addr []byte) {
		file := &dwoFile{info: info, abbrev: abbrev, str: str, strOffsets: strOffsets, rnglists: rnglists}
		k := skeleton{name: "x.dwo"}
		hs, ok := readUnitHeaders(bytes.NewReader(info))
		if !ok || len(hs) == 0 {
			return
		}
		su, err := file.unit(&splitRef{skel: k, entry: hs[0].entry}, addr, addr)
		if err != nil {
			return
		}
		l := newLoader(su.d, nil)
		r := su.d.Reader()
		r.Seek(su.entry)
		if cu, err := r.Next(); err != nil || cu == nil || !cu.Children {
			return
		}
		l.space = 1
		l.loadUnitDIEs(r, su.rangesOf)
		l.resolveNames()
	})
}
