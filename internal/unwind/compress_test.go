package unwind

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

func TestCompressRecursion(t *testing.T) {
	tests := []struct {
		in     string
		maxLen int
		want   string
	}{
		{"", -1, ""},
		{"a", -1, "a"},
		{"aa", -1, "a"},
		{"aabb", -1, "ab"},
		{"abbbc", -1, "abc"},
		{"abcbcd", -1, "abcd"},
		{"abcbcbcd", -1, "abcd"},
		{"abcbcd", 1, "abcbcd"},
		{"abcbcd", 0, "abcbcd"},
		{"aaa", 0, "aaa"},
		{"abab", -1, "ab"},
		{"abaab", -1, "ab"},       // aa -> a, then abab -> ab
		{"abcabcx", 2, "abcabcx"}, // a repeat of 3 frames is longer than 2
		{"abcabcx", 3, "abcx"},
		{"xabcabcabc", -1, "xabc"},
		{"abcab", -1, "abcab"},
	}
	for _, tt := range tests {
		got := CompressRecursion([]byte(tt.in), tt.maxLen)
		if string(got) != tt.want {
			t.Errorf("CompressRecursion(%q, %d) = %q, want %q", tt.in, tt.maxLen, got, tt.want)
		}
	}
}

// TestCompressRecursionNaive checks the in-place compression against a
// plain one on random contexts over a small alphabet.
func TestCompressRecursionNaive(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		n := r.Intn(14)
		b := make([]byte, n)
		for j := range b {
			b[j] = "abc"[r.Intn(3)]
		}
		maxLen := r.Intn(6) - 1
		want := naiveCompress(string(b), maxLen)
		if got := string(CompressRecursion(slices.Clone(b), maxLen)); got != want {
			t.Fatalf("CompressRecursion(%q, %d) = %q, want %q", b, maxLen, got, want)
		}
	}
}

// naiveCompress: for each length k, scan windows left to right, dropping a
// block equal to the block before it.
func naiveCompress(s string, maxLen int) string {
	for k := 1; k <= len(s)/2 && (maxLen < 0 || k <= maxLen); k++ {
		var out strings.Builder
		out.WriteString(s[:k])
		i := 0 // s[i:i+k] is the last block kept
		for i+2*k <= len(s) {
			if s[i:i+k] == s[i+k:i+2*k] {
				i += k
				continue
			}
			out.WriteByte(s[i+k])
			i++
		}
		out.WriteString(s[i+k:])
		s = out.String()
	}
	return s
}

func TestTrimContext(t *testing.T) {
	ctx := []int{1, 2, 3}
	for _, tt := range []struct {
		depth int
		want  []int
	}{{-1, []int{1, 2, 3}}, {0, []int{}}, {1, []int{3}}, {3, []int{1, 2, 3}}, {5, []int{1, 2, 3}}} {
		if got := TrimContext(ctx, tt.depth); !slices.Equal(got, tt.want) {
			t.Errorf("TrimContext(%v, %d) = %v, want %v", ctx, tt.depth, got, tt.want)
		}
	}
}
