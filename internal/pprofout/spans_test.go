package pprofout

import (
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
)

func TestAddressSpans(t *testing.T) {
	loc := func(obj int32, addr uint64) aggregate.Loc { return aggregate.Loc{Obj: obj, Addr: addr} }
	tests := []struct {
		name   string
		stacks [][]aggregate.Loc
		want   []span
	}{
		{"one address", [][]aggregate.Loc{{loc(0, 0x10)}}, []span{{0x10, 0x10}, {}}},
		{"across stacks", [][]aggregate.Loc{{loc(0, 0x30), loc(1, 0x5)}, {loc(0, 0x10), loc(0, 0x40)}}, []span{{0x10, 0x40}, {0x5, 0x5}}},
		{"falling then rising", [][]aggregate.Loc{{loc(1, 0x20), loc(1, 0x10), loc(1, 0x30)}}, []span{{}, {0x10, 0x30}}},
		{"address 0", [][]aggregate.Loc{{loc(0, 0x8), loc(0, 0)}}, []span{{0, 0x8}, {}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			counts := &aggregate.StackCounts{Objects: make([]aggregate.Object, 2)}
			for _, locs := range tt.stacks {
				counts.Stacks = append(counts.Stacks, &aggregate.Stack{Locs: locs, Count: 1})
			}
			if got := addressSpans(counts); !slices.Equal(got, tt.want) {
				t.Errorf("spans %x, want %x", got, tt.want)
			}
		})
	}
}
