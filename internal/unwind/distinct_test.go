package unwind

import (
	"hash/maphash"
	"testing"
)

func TestDistinctBounded(t *testing.T) {
	tests := []struct {
		name      string
		keys      int // distinct keys noted, each twice
		wantInMap int
	}{
		{"below the bound", 1000, 1000},
		{"past the bound", MaxDistinct + 10, MaxDistinct},
	}
	for _, tt := range tests {
		d := NewDistinct(maphash.MakeSeed())
		for i := 0; i < tt.keys; i++ {
			d.note(uint64(i), BranchWarnings{Branches: 2, PairedExternal: 1})
			if i < MaxDistinct {
				d.note(uint64(i), BranchWarnings{Branches: 2, PairedExternal: 1}) // seen before: not counted
			}
		}
		w := d.Warnings()
		if d.Len() != tt.keys || w.Branches != uint64(2*tt.keys) || w.PairedExternal != uint64(tt.keys) || len(d.samples) != tt.wantInMap {
			t.Errorf("%s: Len %d, branches %d, paired %d, kept %d; want %d, %d, %d, %d",
				tt.name, d.Len(), w.Branches, w.PairedExternal, len(d.samples), tt.keys, 2*tt.keys, tt.keys, tt.wantInMap)
		}
	}
}

func TestDistinctMerge(t *testing.T) {
	seed := maphash.MakeSeed()
	a, b := NewDistinct(seed), NewDistinct(seed)
	a.note(1, BranchWarnings{Branches: 3})
	b.note(1, BranchWarnings{Branches: 3}) // the same sample in the other unwinder
	b.note(2, BranchWarnings{Branches: 5})
	b.invalidReturns[0x40] = struct{}{}
	a.Merge(b)
	if a.Len() != 2 || a.Warnings().Branches != 8 || len(a.InvalidReturns()) != 1 {
		t.Errorf("merged: Len %d, branches %d, invalid returns %v; want 2, 8, [0x40]", a.Len(), a.Warnings().Branches, a.InvalidReturns())
	}
}
