package x86

import "testing"

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
			BranchCandidates(text, base, func(t uint64) bool { return t == want }, func(at, target uint64) {
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
		BranchCandidates(b, 0, func(uint64) bool { return true }, func(at, target uint64) {
			t.Errorf("% x: candidate at %#x -> %#x past the end of the code", b, at, target)
		})
	}
}
