package symbolize

import (
	"debug/elf"
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
