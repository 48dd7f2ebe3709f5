package fpskid

import (
	"cmp"
	"maps"
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/testutil"
)

// TestIndexCallers checks the one-pass reverse call graph against the
// call sites of every function decoded on its own (decode, as funcAt
// does).
func TestIndexCallers(t *testing.T) {
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
			c.indexCallers()
			want := callersByDecode(c)
			if len(want) == 0 {
				t.Fatal("no direct call sites")
			}
			if !maps.EqualFunc(sorted(c.callers), sorted(want), slices.Equal) {
				t.Errorf("indexCallers: %d targets, decoding each function: %d", len(c.callers), len(want))
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
		for _, s := range c.decode(sym).sites {
			if !s.indirect {
				out[s.target] = append(out[s.target], s)
			}
		}
	}
	return out
}

func sorted(m map[uint64][]site) map[uint64][]site {
	for _, sites := range m {
		slices.SortFunc(sites, func(a, b site) int { return cmp.Compare(a.at, b.at) })
	}
	return m
}
