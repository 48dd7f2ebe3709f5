package symbolize

import (
	"bytes"
	"debug/elf"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestGoWrappers: in a Go binary, the functions Go's compiler generates as
// wrappers (DW_AT_trampoline) give frames marked Wrapper; others do not.
func TestGoWrappers(t *testing.T) {
	path := filepath.Join(testutil.DataDir(t, "nonpie"), "nonpiego")
	ef, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	d, err := ef.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	syms, err := ef.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"runtime.gcBgMarkStartWorkers.gowrap1": true, // go statement
		"bufio.(*ReadWriter).Available":        true, // promoted method
		"runtime.gcBgMarkWorker":               false,
		"main.main":                            false,
	}
	seen := 0
	for _, s := range syms {
		w, ok := want[s.Name]
		if !ok {
			continue
		}
		seen++
		fs := tab.Frames(s.Value, nil)
		if len(fs) == 0 {
			t.Errorf("%s: no frames", s.Name)
			continue
		}
		if got := fs[0].Wrapper; got != w {
			t.Errorf("%s: Wrapper = %v, want %v", s.Name, got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d functions in the symbol table", seen, len(want))
	}
}

// TestWrappersIndependentOfLoadOrder: loading the units of a Go binary
// from the first to the last, or from the last to the first, gives the
// same frames with the same wrapper marks at every address: whether an
// inlined copy is a wrapper does not depend on whether the unit holding
// the wrapper's trampoline was loaded before or after it.
func TestWrappersIndependentOfLoadOrder(t *testing.T) {
	path := filepath.Join(testutil.DataDir(t, "nonpie"), "nonpiego")
	ef, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	forward, backward := lazyTable(t, ef), lazyTable(t, ef)
	starts := unitStarts(forward)
	for i := range starts {
		forward.Frames(starts[i], nil)
		backward.Frames(starts[len(starts)-1-i], nil)
	}
	text := ef.Section(".text")
	wrappers, bad := 0, 0
	for a := text.Addr; a < text.Addr+text.Size; a += 11 {
		f, b := forward.Frames(a, nil), backward.Frames(a, nil)
		if fmt.Sprint(f) != fmt.Sprint(b) {
			if bad++; bad <= 3 {
				t.Errorf("%#x:\nforward  %v\nbackward %v", a, f, b)
			}
		}
		for _, fr := range f {
			if fr.Wrapper {
				wrappers++
			}
		}
	}
	if wrappers == 0 {
		t.Error("no wrapper frames")
	}
	t.Logf("%d units, %d wrapper frames, %d addresses differ", len(starts), wrappers, bad)
}

// lazyTable is the table of ef that loads units on demand (from its
// .debug_info uncompressed, when Go compressed it).
func lazyTable(t *testing.T, ef *elf.File) *Table {
	d, err := ef.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	info, err := ef.Section(".debug_info").Data()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := New(d, Options{Info: bytes.NewReader(info)})
	if err != nil || tab.lazy == nil {
		t.Fatalf("not lazy: %v", err)
	}
	return tab
}

// unitStarts is the lowest address of each unit with code, in unit
// order.
func unitStarts(tab *Table) []uint64 {
	var out []uint64
	for _, u := range tab.lazy.units {
		if len(u.ranges) > 0 {
			out = append(out, u.ranges[0][0])
		}
	}
	return out
}
