package profmerge

import (
	"maps"
	"testing"
)

func TestAddStatic(t *testing.T) {
	tests := []struct {
		name       string
		names      []string
		sampleUniq bool
		want       map[string]string
	}{
		{name: "not static", names: []string{"main", "x;y"}, want: map[string]string{}},
		{name: "c file", names: []string{"a.c;f"}, want: map[string]string{"f": "a.c;f"}},
		{name: "case-insensitive extension", names: []string{"A.CPP;f"}, want: map[string]string{"f": "A.CPP;f"}},
		{name: "cc before .c", names: []string{"a.cc;g"}, want: map[string]string{"g": "a.cc;g"}},
		{name: "nothing after the prefix", names: []string{"a.c;"}, want: map[string]string{}},
		{name: "two files", names: []string{"a.c;f", "b.c;f"}, want: map[string]string{"f": duplicateName}},
		{name: "suffix trimmed", names: []string{"a.c;f.__uniq.7"}, want: map[string]string{"f": "a.c;f.__uniq.7"}},
		{name: "suffix added", names: []string{"a.c;f"}, sampleUniq: true, want: map[string]string{"f" + uniqPostfix("a.c"): "a.c;f"}},
		{name: "both suffixed", names: []string{"a.c;f.__uniq.7"}, sampleUniq: true, want: map[string]string{"f.__uniq.7": "a.c;f.__uniq.7"}},
	}
	for _, tt := range tests {
		got := map[string]string{}
		for _, n := range tt.names {
			addStatic(got, n, tt.sampleUniq)
		}
		if !maps.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestUniqPostfix(t *testing.T) {
	// MD5("a.c") = 0x8eb7504957a50f21c60999d5f146e8e0 as a decimal number
	// (LLVM's getUniqueInternalLinkagePostfix).
	if got, want := uniqPostfix("a.c"), ".__uniq.189702194130118823156495581805298510048"; got != want {
		t.Errorf("uniqPostfix(a.c) = %s, want %s", got, want)
	}
}
