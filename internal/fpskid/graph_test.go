package fpskid

import (
	"maps"
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/testutil"
)

// TestUniqueCallers checks the callers found from the bytes of the code
// against the call sites of every function decoded on its own (decode, as
// funcAt does), for every function of the binary.
func TestUniqueCallers(t *testing.T) {
	paths := []string{"testdata/skid.elf", "../binary/testdata/clang-pie.elf", "../binary/testdata/tricky.elf"}
	if dir, ok := testutil.OptionalDataDir("nonpie"); ok {
		paths = append(paths, dir+"/nonpiego", dir+"/nonpie")
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			f, err := binary.Open(path, binary.Options{})
			if err != nil {
				t.Skip(err)
			}
			defer f.Close()
			c := newCode(f)
			var entries []uint64
			for _, sym := range f.FuncSymbols() {
				entries = append(entries, sym.Addr)
			}
			got := c.uniqueCallers(entries)
			want := map[uint64]uint64{}
			for target, sites := range callersByDecode(c) {
				if len(sites) == 1 && slices.Contains(entries, target) {
					want[target] = sites[0].at
				}
			}
			if len(want) == 0 {
				t.Fatal("no function with one direct caller")
			}
			if !maps.Equal(got, want) {
				t.Errorf("uniqueCallers: %d functions, decoding each function: %d", len(got), len(want))
				for e, at := range want {
					if got[e] != at {
						t.Errorf("%#x: called once from %#x, got %#x", e, at, got[e])
					}
				}
			}
		})
	}
}

func callersByDecode(c *code) map[uint64][]site {
	out := map[uint64][]site{}
	seen := map[uint64]bool{}
	for _, sym := range c.f.FuncSymbols() {
		if seen[sym.Addr] {
			continue
		}
		seen[sym.Addr] = true
		fn := &function{entry: sym.Addr, end: sym.Addr + sym.Size}
		for _, s := range c.callSites(fn) {
			if !s.indirect {
				out[s.target] = append(out[s.target], s)
			}
		}
	}
	return out
}
