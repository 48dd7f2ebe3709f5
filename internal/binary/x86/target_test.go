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
