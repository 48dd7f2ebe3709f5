package aggregate

import (
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/perfscript"
)

// TestMarkNotFound: a sample with frames in a binary not found and none
// in a profiled binary is NotFound, not NoBinary; one with a profiled
// frame is used; the leaves in binaries not found are counted by binary,
// used or not; merged counts add up.
func TestMarkNotFound(t *testing.T) {
	for _, tt := range []struct {
		name   string
		frames string
		used   uint64
		nf, nb uint64
		leaves []uint64
	}{
		{"leaf in lib, caller in binary", "\t 10 f (/lib/a.so)\n\t 500456 main (/bin/big)\n", 1, 0, 0, []uint64{1, 0}},
		{"only in binaries not found", "\t 10 f (/lib/a.so)\n\t 20 g (/lib/b.so)\n", 0, 1, 0, []uint64{1, 0}},
		{"caller in a binary not found", "\t 10 f (/lib/other.so)\n\t 20 g (/lib/b.so)\n", 0, 1, 0, []uint64{0, 0}},
		{"in no binary", "\t 10 f (/lib/other.so)\n", 0, 0, 1, []uint64{0, 0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			table := addrspace.New(addrspace.Binary{}, nil)
			newStacks := func() *Stacks {
				a := NewStacks([]StackBinary{nonPIE{}}, table)
				a.MarkNotFound([]string{"/lib/a.so", "/lib/b.so"})
				return a
			}
			a, b := newStacks(), newStacks()
			s := perfscript.NewScanner(strings.NewReader("1 \n"+tt.frames), "t")
			for s.Next() {
				if err := b.Add(s.Record()); err != nil {
					t.Fatal(err)
				}
			}
			a.Merge(b)
			st := a.Counts().Stats
			if st.Used != tt.used || st.NotFound != tt.nf || st.NoBinary != tt.nb || !slices.Equal(st.NotFoundLeaves, tt.leaves) {
				t.Errorf("used %d, not found %d, no binary %d, leaves %v; want %d %d %d %v",
					st.Used, st.NotFound, st.NoBinary, st.NotFoundLeaves, tt.used, tt.nf, tt.nb, tt.leaves)
			}
		})
	}
}
