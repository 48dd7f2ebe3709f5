package x86

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDirectTarget(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
		end  uint64
		want uint64
		ok   bool
	}{
		{"call rel32", []byte{0xe8, 0x10, 0, 0, 0}, 0x1005, 0x1015, true},
		{"jmp rel32 backwards", []byte{0xe9, 0xf0, 0xff, 0xff, 0xff}, 0x1005, 0xff5, true},
		{"jmp rel8", []byte{0xeb, 0x02}, 0x1002, 0x1004, true},
		{"jne rel8 backwards", []byte{0x75, 0xfe}, 0x1002, 0x1000, true},
		{"je rel32", []byte{0x0f, 0x84, 0x00, 0x01, 0, 0}, 0x1006, 0x1106, true},
		{"bnd jmp", []byte{0xf2, 0xe9, 0x10, 0, 0, 0}, 0x1006, 0x1016, true},
		{"indirect call", []byte{0xff, 0xd0}, 0x1002, 0, false},
		{"ret", []byte{0xc3}, 0x1001, 0, false},
	}
	for _, tt := range tests {
		got, ok := DirectTarget(tt.b, tt.end)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %#x %v, want %#x %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

// TestBranchCandidates checks that every direct branch DirectTarget
// decodes, at any offset of a buffer and behind any prefix, is a candidate
// with the same target.
func TestBranchCandidates(t *testing.T) {
	tests := []struct {
		name string
		b    []byte
	}{
		{"call rel32", []byte{0xe8, 0x10, 0, 0, 0}},
		{"jmp rel32 backwards", []byte{0xe9, 0xf0, 0xff, 0xff, 0xff}},
		{"jmp rel8", []byte{0xeb, 0x02}},
		{"jne rel8 backwards", []byte{0x75, 0xfe}},
		{"je rel32", []byte{0x0f, 0x84, 0x00, 0x01, 0, 0}},
		{"bnd jmp", []byte{0xf2, 0xe9, 0x10, 0, 0, 0}},
		{"notrack bnd call", []byte{0x3e, 0xf2, 0xe8, 0x10, 0, 0, 0}},
	}
	for _, tt := range tests {
		for pad := range 3 {
			text := append(make([]byte, pad, pad+len(tt.b)+1), tt.b...)
			const base = 0x4000
			end := base + uint64(len(text))
			want, ok := DirectTarget(tt.b, end)
			if !ok {
				t.Fatalf("%s: not a direct branch", tt.name)
			}
			found := false
			BranchCandidates(text, base, []uint64{want}, func(at, target uint64) {
				found = found || target == want && at >= base+uint64(pad)
			})
			if !found {
				t.Errorf("%s at offset %d: target %#x not a candidate", tt.name, pad, want)
			}
		}
	}
}

func TestBranchCandidatesTruncated(t *testing.T) {
	for _, b := range [][]byte{{0xe8, 1, 2, 3}, {0x0f, 0x84, 0, 0, 0}, {0x0f}, {0x75}} {
		BranchCandidates(b, 0, everyAddress(0, 1<<12), func(at, target uint64) {
			t.Errorf("% x: candidate at %#x -> %#x past the end of the code", b, at, target)
		})
	}
}

func everyAddress(lo, hi uint64) []uint64 {
	var out []uint64
	for a := lo; a < hi; a++ {
		out = append(out, a)
	}
	return out
}

// TestBranchCandidatesEveryByte checks BranchCandidates against reading
// every byte as an opcode, on code dense with branch opcodes and target
// sets from single addresses to clusters closer than a short branch reaches.
func TestBranchCandidatesEveryByte(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	opcodes := []byte{0xe8, 0xe9, 0xeb, 0x0f, 0x84, 0x75, 0x70, 0x7f, 0x00, 0xff, 0x80}
	for round := range 200 {
		text := make([]byte, 1+r.IntN(2000))
		for i := range text {
			if r.IntN(3) == 0 {
				text[i] = byte(r.Uint32())
			} else {
				text[i] = opcodes[r.IntN(len(opcodes))]
			}
		}
		base := uint64(0x1000 + r.IntN(64))
		if round%7 == 0 { // branches that wrap around the address space
			base = -uint64(len(text)) / 2
		}
		var targets []uint64
		for range 1 + r.IntN(20) {
			a := base - 300 + uint64(r.IntN(len(text)+600))
			targets = append(targets, a, a+uint64(r.IntN(300)))
		}
		if round%10 == 0 { // targets of every real branch: many candidates
			byEveryByte(text, base, func(uint64) bool { return true }, func(_, t uint64) { targets = append(targets, t) })
		}
		targets = slices.Compact(slices.Sorted(slices.Values(targets)))
		var want, got [][2]uint64
		byEveryByte(text, base, func(t uint64) bool { _, ok := slices.BinarySearch(targets, t); return ok },
			func(at, t uint64) { want = append(want, [2]uint64{at, t}) })
		BranchCandidates(text, base, targets, func(at, t uint64) { got = append(got, [2]uint64{at, t}) })
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: got %d candidates %x, want %d %x", round, len(got), got, len(want), want)
		}
	}
}

// byEveryByte is what BranchCandidates finds, read byte by byte.
func byEveryByte(text []byte, base uint64, want func(target uint64) bool, visit func(at, target uint64)) {
	for p := range text {
		n := opcodeLen[text[p]]
		if n == 0 {
			continue
		}
		if rel, size, ok := relOperand(text[p:], n); ok {
			at := base + uint64(p)
			if t := at + uint64(size) + uint64(rel); want(t) {
				visit(at, t)
			}
		}
	}
}
