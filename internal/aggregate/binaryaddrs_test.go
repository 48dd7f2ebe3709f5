package aggregate

import (
	"reflect"
	"testing"
)

// TestBinaryAddrs: each binary's frame addresses, in stack order with
// repeats; frames of other DSOs left out.
func TestBinaryAddrs(t *testing.T) {
	counts := &StackCounts{
		Objects: []Object{{Path: "a", Binary: 0}, {Path: "libc", Binary: -1}, {Path: "b", Binary: 1}},
		Stacks: []*Stack{
			{Locs: []Loc{{0, 0x10}, {1, 0x99}, {0, 0x20}}},
			{Locs: []Loc{{2, 0x30}, {0, 0x10}}},
		},
	}
	for _, tc := range []struct {
		name string
		n    int
		want [][]uint64
	}{
		{"both binaries", 2, [][]uint64{{0x10, 0x20, 0x10}, {0x30}}},
		{"the first", 1, [][]uint64{{0x10, 0x20, 0x10}}},
		{"none", 0, [][]uint64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := counts.BinaryAddrs(tc.n); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("BinaryAddrs(%d) = %v, want %v", tc.n, got, tc.want)
			}
		})
	}
}
