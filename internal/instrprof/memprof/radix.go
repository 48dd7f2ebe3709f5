package memprof

import (
	"cmp"
	"slices"
)

// frameStat is how often a frame occurs in the call stacks, and the sum
// of its positions (leaf = 0).
type frameStat struct {
	count, positionSum uint64
}

func frameHistogram(d *Data) map[FrameID]frameStat {
	h := map[FrameID]frameStat{}
	for _, id := range d.StackOrder {
		for i, f := range d.Stacks[id] {
			s := h[f]
			s.count++
			s.positionSum += uint64(i)
			h[f] = s
		}
	}
	return h
}

// frameArray writes the frames, the most used first (then the one nearer
// the leaves, then by id), and returns each frame's index.
func (w *sectionWriter) frameArray(hist map[FrameID]frameStat) map[FrameID]uint32 {
	ids := slices.Clone(w.d.FrameOrder)
	slices.SortFunc(ids, func(a, b FrameID) int {
		sa, sb := hist[a], hist[b]
		if sa.count != sb.count {
			return cmp.Compare(sb.count, sa.count)
		}
		if sa.positionSum != sb.positionSum {
			return cmp.Compare(sa.positionSum, sb.positionSum)
		}
		return cmp.Compare(a, b)
	})
	index := make(map[FrameID]uint32, len(ids))
	for i, id := range ids {
		w.b = appendFrame(w.b, w.d.Frames[id])
		index[id] = uint32(i)
	}
	return index
}

// radixArray writes the call stacks as llvm's CallStackRadixTreeBuilder
// encodes them (see radixTree) and keeps each one's position.
func (w *sectionWriter) radixArray(hist map[FrameID]frameStat, index map[FrameID]uint32) {
	arr, pos := radixTree(w.d, hist, index)
	for _, x := range arr {
		w.b = appendU32(w.b, x)
	}
	w.stackPos = pos
}

func appendU32(b []byte, x uint32) []byte {
	return append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
}

// radixTree encodes the call stacks in one array sharing common root
// prefixes: stacks sorted from the root by frame popularity (then id),
// encoded from the last, each as a pointer (negative offset) to the
// prefix it shares with the one before, its other frames root first,
// and its length; the array is then reversed, so a stack reads as its
// length followed by its frames leaf first.
func radixTree(d *Data, hist map[FrameID]frameStat, index map[FrameID]uint32) ([]uint32, map[StackID]uint32) {
	ids := slices.Clone(d.StackOrder)
	if len(ids) == 0 {
		return nil, map[StackID]uint32{}
	}
	slices.SortFunc(ids, func(a, b StackID) int { return compareFromRoot(d.Stacks[a], d.Stacks[b], hist) })
	var arr []uint32
	var indexes []uint32
	pos := make(map[StackID]uint32, len(ids))
	var prev []FrameID
	for i := len(ids) - 1; i >= 0; i-- {
		stack := d.Stacks[ids[i]]
		common := commonRootLen(prev, stack)
		indexes = indexes[:common]
		if common > 0 {
			arr = append(arr, indexes[common-1]-uint32(len(arr)))
		}
		for j := len(stack) - 1 - common; j >= 0; j-- {
			indexes = append(indexes, uint32(len(arr)))
			arr = append(arr, index[stack[j]])
		}
		arr = append(arr, uint32(len(stack)))
		pos[ids[i]] = uint32(len(arr) - 1)
		prev = stack
	}
	slices.Reverse(arr)
	for id, p := range pos {
		pos[id] = uint32(len(arr)) - 1 - p
	}
	return arr, pos
}

// compareFromRoot orders call stacks (leaf first) from their roots,
// frames by popularity, then id.
func compareFromRoot(a, b []FrameID, hist map[FrameID]frameStat) int {
	for i, j := len(a)-1, len(b)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		fa, fb := a[i], b[j]
		if fa == fb {
			continue
		}
		if ca, cb := hist[fa].count, hist[fb].count; ca != cb {
			return cmp.Compare(ca, cb)
		}
		return cmp.Compare(fa, fb)
	}
	return cmp.Compare(len(a), len(b))
}

// commonRootLen is the length of the common root prefix of two stacks.
func commonRootLen(a, b []FrameID) int {
	n := 0
	for i, j := len(a)-1, len(b)-1; i >= 0 && j >= 0 && a[i] == b[j]; i, j = i-1, j-1 {
		n++
	}
	return n
}
