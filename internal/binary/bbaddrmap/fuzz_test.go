package bbaddrmap

import (
	"debug/elf"
	"path/filepath"
	"testing"
)

// FuzzRead decodes mutated map sections, with 8- and 4-byte addresses.
// Nothing may panic; a success must give functions with ranges, PGO data
// for every block when the features say so, and no more blocks than the
// data could hold (each takes at least four bytes).
func FuzzRead(f *testing.F) {
	bins, _ := filepath.Glob("testdata/*.elf")
	for _, bin := range bins {
		data := sectionOf(f, bin)
		f.Add(data, false)
		f.Add(data[:len(data)/2], false) // truncated
	}
	for _, seed := range []enc{
		enc{}.b(2, 0).u64(0).uleb(0xffffffff),                  // absurd block count
		enc{}.b(5).u16(8).uleb(0xffffffff),                     // absurd range count
		enc{}.b(5).u16(0x20).u64(0).uleb(1, 0, 0, 0xffffffff),  // absurd call-site count
		enc{}.b(2, 4).u64(0).uleb(1, 0, 0, 1, 1).uleb(1 << 60), // absurd successor count
		enc{}.b(6, 0), enc{}.b(1, 0), enc{}.b(0xff).u16(0xffff), // unknown versions
		enc{}.b(5).u16(0x1ff), // unknown feature bits
		enc{}.b(5).u16(0xef).uleb(1).u64(0).uleb(1, 0, 0, 1, 2, 0, 8), // everything, cut short
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, addr32 bool) {
		opts := Options{}
		if addr32 {
			opts.AddrSize = 4
		}
		funcs, err := Decode(data, opts)
		if err != nil {
			return
		}
		blocks := 0
		for i := range funcs {
			checkFunc(t, &funcs[i])
			blocks += funcs[i].NumBlocks()
		}
		if 4*blocks > len(data) {
			t.Fatalf("%d blocks from %d bytes", blocks, len(data))
		}
	})
}

func checkFunc(t *testing.T, fn *Func) {
	if len(fn.Ranges) == 0 {
		t.Fatalf("function without ranges: %+v", fn)
	}
	fn.Addr()
	if fn.Features.hasPGO() != (fn.PGO != nil) {
		t.Fatalf("features %#x, PGO %v", fn.Features, fn.PGO)
	}
	if fn.Features.hasPGOBlocks() && len(fn.PGO.Blocks) != fn.NumBlocks() {
		t.Fatalf("%d PGO blocks for %d blocks", len(fn.PGO.Blocks), fn.NumBlocks())
	}
}

// sectionOf is the first map section of the ELF file bin.
func sectionOf(tb testing.TB, bin string) []byte {
	ef, err := elf.Open(bin)
	if err != nil {
		tb.Fatal(err)
	}
	defer ef.Close()
	for _, s := range ef.Sections {
		if s.Type == SectionType {
			data, err := s.Data()
			if err != nil {
				tb.Fatal(err)
			}
			return data
		}
	}
	tb.Fatalf("%s: no map section", bin)
	return nil
}
