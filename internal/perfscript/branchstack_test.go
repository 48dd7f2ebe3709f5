package perfscript

import (
	"strings"
	"testing"
)

// TestHoldsBranchStack: a brstack entry is found in whatever form the
// parser takes it; paths, pid/tid and "/0x" inside a path are not entries.
func TestHoldsBranchStack(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"empty", "", false},
		{"one-line LBR sample", " 401139 0x40111f/0x401139/P/-/-/0  0x401114/0x40111c/P/-/-/0", true},
		{"entry first on the line", "0x40111f/0x401139/P/-/-/0", true},
		{"entry after a tab", "\t0x40111f/0x401139/P/-/-/0", true},
		{"dso field", "app 7/7 1.5: cycles: 0x40111f(/tmp/app)/0x401139(/tmp/app)/P/-/-/0", true},
		{"upper-case 0X", " 0X40111F/0X401139/P/-/-/0", true},
		{"bad first entry", " 401139 0x40111f/zz", true},
		{"bad first entry, nothing after the slash", " 401139 0x40111f/", true},
		{"call-chain frame", "\t  401139 main+0x19 (/usr/lib/x86_64-linux-gnu/app)", false},
		{"0x in a path", "\t  401139 main+0x19 (/tmp/0x1000/app)", false},
		{"0x after a path", "app 7/7 1.5: cycles: 401139 main (/tmp/app)/0x10", false},
		{"pid/tid", "app 1234/0 [000] 1.5: cycles:", false},
		{"mmap event", "app 7/7 1.5: PERF_RECORD_MMAP2 7/7: [0x400000(0x1000) @ 0 08:01 12 0]: r-xp /tmp/app", false},
		{"entry on the second line", "app 7/7 1.5: cycles:\n0x40111f/0x401139/P/-/-/0\n", true},
		{"slashes only", "a/b/c d/e /f/ //", false},
	}
	for _, tt := range tests {
		if got := HoldsBranchStack([]byte(tt.text)); got != tt.want {
			t.Errorf("%s: HoldsBranchStack(%q) = %v, want %v", tt.name, tt.text, got, tt.want)
		}
	}
}

// FuzzHoldsBranchStack: the same answer as isEntry on each field.
func FuzzHoldsBranchStack(f *testing.F) {
	for _, data := range testScripts(f) {
		f.Add(data)
	}
	f.Add([]byte(" 401139 0x40111f/zz\n\t  401139 main+0x19 (/tmp/0x1000/app)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := false
		for _, field := range strings.FieldsFunc(string(data), func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) {
			want = want || isEntry([]byte(field))
		}
		if got := HoldsBranchStack(data); got != want {
			t.Fatalf("HoldsBranchStack(%q) = %v, want %v", data, got, want)
		}
	})
}
