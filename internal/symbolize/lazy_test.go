package symbolize

import (
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// debugInfo returns the .debug_info section for lazy loading, or nil when
// compressed.
func debugInfo(f *elf.File) io.ReaderAt {
	s := f.Section(".debug_info")
	if s == nil || s.Flags&elf.SHF_COMPRESSED != 0 {
		return nil
	}
	return s
}

// elfSymbols are the binary's function symbols, as the driver gives them.
func elfSymbols(f *elf.File) []Symbol {
	syms, _ := f.Symbols()
	var out []Symbol
	for _, s := range syms {
		if t := elf.ST_TYPE(s.Info); (t == elf.STT_FUNC || t == elf.STT_GNU_IFUNC) && s.Section != elf.SHN_UNDEF && s.Value != 0 {
			out = append(out, Symbol{Addr: s.Value, Name: s.Name, Size: s.Size})
		}
	}
	return out
}

// describe is everything a table says about addr.
func describe(t *Table, addr uint64) string {
	s := fmt.Sprint(t.Frames(addr, nil))
	if r := t.FuncRangeAt(addr); r != nil {
		s += fmt.Sprintf(" in %s %#x-%#x entry=%v ranges=%v", r.Func.Name, r.Start, r.End, r.IsEntry, r.Func.Ranges)
	}
	if r := t.FuncRangeStartingAt(addr); r != nil {
		s += " starts " + r.Func.Name
	}
	return s
}

// TestLazyEqualsEager: a table that loads units on demand answers every
// address of the code as the one that loads all, in any order of queries.
func TestLazyEqualsEager(t *testing.T) {
	bins, _ := filepath.Glob("../../testdata/programs/bin/*")
	bins = append(bins, "../../testdata/callstack/forky")
	if dir := os.Getenv("PROFGEN_TESTDATA"); dir != "" {
		bins = append(bins, filepath.Join(dir, "lbr/sqlite/binary"), filepath.Join(dir, "nonpie/nonpie"), filepath.Join(dir, "nonpie/nonpiego"))
	}
	for _, p := range bins {
		f, err := elf.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		info := debugInfo(f)
		if sec := f.Section(".debug_info"); info == nil && sec != nil {
			if b, err := sec.Data(); err == nil {
				info = bytes.NewReader(b) // Go compresses its DWARF
			}
		}
		d, err := f.DWARF()
		if err != nil || info == nil {
			t.Logf("%s: no uncompressed DWARF", p)
			continue
		}
		text := f.Section(".text")
		syms := elfSymbols(f) // anonns-gcc: functions named by them
		eager, err := New(d, Options{Symbols: syms})
		if err != nil {
			t.Fatal(err)
		}
		lazy, _ := New(d, Options{Info: info, Symbols: syms})
		if lazy.lazy == nil {
			t.Errorf("%s: not lazy", p)
			continue
		}
		eager.MarkEntries(syms)
		lazy.MarkEntries(syms)
		step := max(text.Size/20000, 1)
		n, bad := 0, 0
		// from the end: another order of unit loading than the eager pass
		for a := text.Addr + text.Size - 1; a >= text.Addr && a < text.Addr+text.Size; a -= step {
			n++
			if w, g := describe(eager, a), describe(lazy, a); w != g {
				if bad++; bad <= 3 {
					t.Errorf("%s %#x:\neager %s\nlazy  %s", filepath.Base(p), a, w, g)
				}
			}
		}
		loaded := 0
		for _, u := range lazy.lazy.units {
			if u.loaded {
				loaded++
			}
		}
		t.Logf("%s: %d addresses, %d differ; %d of %d units loaded", filepath.Base(p), n, bad, loaded, len(lazy.lazy.units))
		f.Close()
	}
}

// TestLazyUnits: a program of several units, with a static function of
// one name in each (grouped by name, as llvm-profgen groups them) and
// inlined code: lazy and eager tables agree, and a query loads only the
// units it needs.
func TestLazyUnits(t *testing.T) {
	clang := testutil.Tool(t, "clang-19")
	dir := t.TempDir()
	var srcs []string
	for i := range 4 {
		src := filepath.Join(dir, fmt.Sprintf("u%d.c", i))
		body := fmt.Sprintf(`static inline int sq(int x) { return x * x + %d; }
__attribute__((noinline)) static int helper(int x) { int s = 0; for (int i = 0; i < x; i++) s += sq(i) ^ %d; return s; }
int unit%d(int x) { return helper(x) + helper(x + 1); }
`, i, i, i)
		if i == 0 {
			body += "int unit1(int); int unit2(int); int unit3(int);\nint main(int c, char **v) { (void)v; return unit0(c) + unit1(c) + unit2(c) + unit3(c); }\n"
		}
		os.WriteFile(src, []byte(body), 0o644)
		srcs = append(srcs, src)
	}
	bin := filepath.Join(dir, "prog")
	if out, err := exec.Command(clang, append([]string{"-O1", "-g", "-o", bin}, srcs...)...).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, _ := f.DWARF()
	eager, _ := New(d, Options{})
	lazy, _ := New(d, Options{Info: debugInfo(f)})
	if lazy.lazy == nil || len(lazy.lazy.units) != 4 {
		t.Fatalf("lazy: %+v", lazy.lazy)
	}
	syms := elfSymbols(f)
	eager.MarkEntries(syms)
	lazy.MarkEntries(syms)
	var unit3 uint64
	for _, s := range syms {
		if s.Name == "unit3" {
			unit3 = s.Addr
		}
	}
	describe(lazy, unit3+4)
	loaded := 0
	for _, u := range lazy.lazy.units {
		if u.loaded {
			loaded++
		}
	}
	if loaded != 4 { // helper is in every unit: all are needed for its ranges
		t.Errorf("%d units loaded after one query, want 4 (helper's)", loaded)
	}
	text := f.Section(".text")
	for a := text.Addr; a < text.Addr+text.Size; a++ {
		if w, g := describe(eager, a), describe(lazy, a); w != g {
			t.Fatalf("%#x:\neager %s\nlazy  %s", a, w, g)
		}
	}
}
