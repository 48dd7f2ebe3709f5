package symbolize

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// dieTestBinaries are binaries whose units dieReader is checked on: the
// test data of generate and binary (clang's DWARF 5 and 4, gcc's), and the
// large ones of PROFGEN_TESTDATA when they are built (the Go compiler,
// sqlite and a large C++ program by clang among them).
func dieTestBinaries() []string {
	paths, _ := filepath.Glob("../generate/testdata/*.bin")
	elfs, _ := filepath.Glob("../binary/testdata/*.elf")
	paths = append(paths, elfs...)
	for _, p := range []string{"gocompile/compile", "nonpie/nonpiego", "nonpie/nonpie", "callstack/forky",
		"lbr/sqlite/binary", "cs/sqlite-bench/binary", "bigcpp/bigcpp"} {
		if dir, ok := testutil.OptionalDataDir(filepath.Dir(p)); ok {
			paths = append(paths, filepath.Join(dir, filepath.Base(p)))
		}
	}
	return paths
}

// TestDIEReaderIsDebugDWARF reads every unit that dieReader reads with
// it and with debug/dwarf: the same DIEs, and of subprograms and inlined
// subroutines the same values (and classes) of the attributes the loader
// reads.
func TestDIEReaderIsDebugDWARF(t *testing.T) {
	eachDWARFTestBinary(t, func(t *testing.T, ef *elf.File, d *dwarf.Data) {
		read, units := compareUnits(t, testDIESections(t, ef), d)
		t.Logf("%d of %d units read", read, units)
	})
}

// eachDWARFTestBinary runs f as a subtest on each of dieTestBinaries,
// skipping those that cannot be read.
func eachDWARFTestBinary(t *testing.T, f func(t *testing.T, ef *elf.File, d *dwarf.Data)) {
	for _, path := range dieTestBinaries() {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			ef, err := elf.Open(path)
			if err != nil {
				t.Skip(err)
			}
			defer ef.Close()
			d, err := ef.DWARF()
			if err != nil {
				t.Skip(err)
			}
			f(t, ef, d)
		})
	}
}

// compareUnits compares the units of s that dieReader reads with d's and
// returns how many it read, of how many.
func compareUnits(t *testing.T, s *dieSections, d *dwarf.Data) (read, units int) {
	t.Helper()
	hs, ok := readUnitHeaders(bytes.NewReader(s.info))
	if !ok {
		t.Fatal("unit headers")
	}
	tables := map[uint64]abbrevTable{}
	for _, h := range hs {
		fast, ok := newDIEReader(s, h.start, tables)
		if !ok {
			continue
		}
		read++
		compareUnitDIEs(t, fast, d, h.entry)
	}
	return read, len(hs)
}

func testDIESections(t *testing.T, ef *elf.File) *dieSections {
	t.Helper()
	data := func(name string) []byte {
		sec := ef.Section(name)
		if sec == nil {
			return nil
		}
		b, err := sec.Data()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return &dieSections{info: data(".debug_info"), abbrev: data(".debug_abbrev"), str: data(".debug_str"), lineStr: data(".debug_line_str"), addr: data(".debug_addr"),
		strOffsets: data(".debug_str_offsets"), rnglists: data(".debug_rnglists"), ranges: data(".debug_ranges"), line: data(".debug_line")}
}

func compareUnitDIEs(t *testing.T, fast *dieReader, d *dwarf.Data, entry dwarf.Offset) {
	t.Helper()
	slow := d.Reader()
	slow.Seek(entry)
	if _, err := slow.Next(); err != nil {
		t.Fatal(err)
	}
	for {
		got, err := fast.Next()
		if err != nil {
			t.Fatalf("unit at %#x: %v", entry, err)
		}
		if got == nil {
			return
		}
		want, err := slow.Next()
		if err != nil || want == nil {
			t.Fatalf("DIE at %#x: debug/dwarf: %v, %v", got.Offset, want, err)
		}
		if got.Tag == 0 && want.Tag == 0 {
			continue // debug/dwarf gives the null entry no offset
		}
		if got.Offset != want.Offset || got.Tag != want.Tag || got.Children != want.Children {
			t.Fatalf("DIE at %#x %v children %v, debug/dwarf: at %#x %v children %v", got.Offset, got.Tag, got.Children, want.Offset, want.Tag, want.Children)
		}
		if want.Tag != dwarf.TagSubprogram && want.Tag != dwarf.TagInlinedSubroutine {
			continue
		}
		for a := range dieAttrs {
			g, w := got.AttrField(a), want.AttrField(a)
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("DIE at %#x, %v: %+v, debug/dwarf %+v", got.Offset, a, g, w)
			}
		}
		gr, gerr := fast.ranges(got)
		wr, werr := d.Ranges(want)
		if !reflect.DeepEqual(gr, wr) || (gerr == nil) != (werr == nil) {
			t.Fatalf("DIE at %#x: ranges %#x (%v), debug/dwarf %#x (%v)", got.Offset, gr, gerr, wr, werr)
		}
	}
}

// FuzzDIEReader reads arbitrary units with arbitrary abbreviations,
// strings, string offsets, addresses and range lists: bad DWARF must end
// the DIEs (or their ranges) with an error, never panic. The seeds are
// gcc's DWARF 5, clang's DWARF 4 and clang's DWARF 5 (strx, addrx and
// rnglistx forms).
func FuzzDIEReader(f *testing.F) {
	for _, path := range []string{"../generate/testdata/gcc-pie.bin", "../generate/testdata/cxx-nopie-dwarf4.bin", "../generate/testdata/cxx-split.bin"} {
		ef, err := elf.Open(path)
		if err != nil {
			continue
		}
		var secs [8][]byte
		for i, name := range []string{".debug_info", ".debug_abbrev", ".debug_str", ".debug_line_str", ".debug_addr", ".debug_str_offsets", ".debug_rnglists", ".debug_ranges"} {
			if s := ef.Section(name); s != nil {
				secs[i], _ = s.Data()
			}
		}
		ef.Close()
		f.Add(secs[0], secs[1], secs[2], secs[3], secs[4], secs[5], secs[6], secs[7])
	}
	f.Fuzz(func(t *testing.T, info, abbrev, str, lineStr, addr, strOffsets, rnglists, ranges []byte) {
		s := &dieSections{info: info, abbrev: abbrev, str: str, lineStr: lineStr, addr: addr, strOffsets: strOffsets, rnglists: rnglists, ranges: ranges}
		hs, _ := readUnitHeaders(bytes.NewReader(info))
		tables := map[uint64]abbrevTable{}
		for _, h := range append(hs, unitHeader{}) {
			r, ok := newDIEReader(s, h.start, tables)
			if !ok {
				continue
			}
			for n := 0; n <= len(info); n++ {
				e, err := r.Next()
				if e == nil || err != nil {
					break
				}
				r.ranges(e)
			}
		}
	})
}
