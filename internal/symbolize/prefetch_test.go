package symbolize

import (
	"debug/elf"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestPrefetchEqualsLookups: a table whose units Prefetch loaded, on one
// goroutine or several, answers every address as one that loaded its
// units one lookup at a time, wrapper marks and function entries
// included.
func TestPrefetchEqualsLookups(t *testing.T) {
	path := filepath.Join(testutil.DataDir(t, "nonpie"), "nonpiego")
	ef, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	text := ef.Section(".text")
	var addrs []uint64
	for a := text.Addr; a < text.Addr+text.Size; a += 29 {
		addrs = append(addrs, a)
	}
	syms := elfSymbols(ef)
	want := lazyTable(t, ef)
	want.MarkEntries(syms)
	wants := make([]string, len(addrs))
	for i, a := range addrs {
		wants[i] = describe(want, a)
	}
	for _, tc := range []struct {
		name    string
		workers int
		addrs   []uint64 // prefetched
	}{
		{"one goroutine", 1, addrs},
		{"two goroutines", 2, addrs},
		{"eight goroutines", 8, addrs},
		{"half of the addresses", 2, addrs[:len(addrs)/2]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := lazyTable(t, ef)
			tab.MarkEntries(syms)
			tab.lazy.prefetch(tc.addrs, tc.workers)
			bad := 0
			for i, a := range addrs {
				if got := describe(tab, a); got != wants[i] {
					if bad++; bad <= 3 {
						t.Errorf("%#x:\nprefetched %s\nlookups    %s", a, got, wants[i])
					}
				}
			}
		})
	}
}
