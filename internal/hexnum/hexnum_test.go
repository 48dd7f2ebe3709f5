package hexnum

import (
	"strconv"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"ffffffff81000000", 0xffffffff81000000, true},
		{"FFFFFFFF81000000", 0xffffffff81000000, true},
		{"0", 0, true},
		{"00000000000000000001", 1, true}, // leading zeros past 16 digits
		{"10000000000000000", 0, false},   // 65 bits
		{"", 0, false},
		{"0x10", 0, false},
		{"12g4", 0, false},
		{"-1", 0, false},
	}
	for _, tt := range tests {
		got, ok := Parse([]byte(tt.in))
		want, err := strconv.ParseUint(tt.in, 16, 64)
		if got != tt.want || ok != tt.ok || ok != (err == nil) || (ok && got != want) {
			t.Errorf("Parse(%q) = %#x, %v; want %#x, %v (ParseUint: %#x, %v)", tt.in, got, ok, tt.want, tt.ok, want, err)
		}
	}
}
