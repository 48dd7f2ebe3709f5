package memprof

import (
	"slices"
	"testing"
)

// readRadix reconstructs the stack at pos as llvm's reader does: the
// length, then frames leaf first, a negative value being a jump forward
// by its magnitude to the frames shared with another stack.
func readRadix(arr []uint32, pos uint32) []uint32 {
	n := arr[pos]
	var out []uint32
	for i := pos + 1; uint32(len(out)) < n; i++ {
		if int32(arr[i]) < 0 {
			i += uint32(-int32(arr[i]))
		}
		out = append(out, arr[i])
	}
	return out
}

func TestRadixTreeRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		stacks [][]uint64 // functions, leaf first
	}{
		{"one stack", [][]uint64{{1, 2, 3}}},
		{"shared root", [][]uint64{{4, 2, 1}, {5, 2, 1}, {6, 1}}},
		{"prefix of another", [][]uint64{{2, 1}, {3, 2, 1}, {1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := NewData()
			var ids []StackID
			for _, s := range tc.stacks {
				var frames []FrameID
				for _, fn := range s {
					frames = append(frames, d.AddFrame(Frame{Function: fn}))
				}
				ids = append(ids, d.AddStack(frames))
			}
			w := &sectionWriter{d: d}
			hist := frameHistogram(d)
			index := w.frameArray(hist)
			arr, pos := radixTree(d, hist, index)
			for i, id := range ids {
				var want []uint32
				for _, f := range d.Stacks[id] {
					want = append(want, index[f])
				}
				if got := readRadix(arr, pos[id]); !slices.Equal(got, want) {
					t.Errorf("stack %d: read %v, want %v (array %v)", i, got, want, arr)
				}
			}
		})
	}
}
