package addrprof

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, texts ...string) []string {
	t.Helper()
	dir := t.TempDir()
	paths := make([]string, len(texts))
	for i, text := range texts {
		paths[i] = filepath.Join(dir, string(rune('a'+i))+".raw")
		if err := os.WriteFile(paths[i], []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// TestMergeFiles: unsymbolized profiles of LBR and CS add up, written in
// llvm-profgen's order (wrapped external offsets first) in any order of
// the inputs; mixing kinds is refused in one line.
func TestMergeFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		inputs []string
		want   string
	}{
		{"LBR", []string{"1\n10-20:3\n2\nffffffffffff5001->10:1\n20->10:3\n", "2\n10-20:1\n30-40:2\n1\nffffffffffff5001->30:4\n"},
			"2\n10-20:4\n30-40:2\n3\nffffffffffff5001->10:1\nffffffffffff5001->30:4\n20->10:3\n"},
		{"CS", []string{"[main:1 @ foo]\n  1\n  10-20:3\n  0\n", "[]\n  0\n  1\n  ffffffffffff5001->10:2\n[main:1 @ foo]\n  1\n  10-20:1\n  0\n"},
			"[]\n  0\n  1\n  ffffffffffff5001->10:2\n[main:1 @ foo]\n  1\n  10-20:4\n  0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths := writeFiles(t, tc.inputs...)
			for _, order := range [][]string{paths, {paths[1], paths[0]}} {
				var b bytes.Buffer
				if err := MergeFiles(&b, order); err != nil {
					t.Fatal(err)
				}
				if b.String() != tc.want {
					t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
				}
			}
		})
	}
	for _, tc := range []struct {
		name   string
		inputs []string
		want   string
	}{
		{"LBR and CS", []string{"0\n0\n", "[]\n  0\n  0\n"}, "different kinds"},
		{"LBR and call stacks", []string{"0\n0\n", Header + "\n"}, "different kinds"},
		{"not an address profile", []string{"0\n0\n", "main:1:1\n 1: 1\n"}, "not an address profile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := MergeFiles(&bytes.Buffer{}, writeFiles(t, tc.inputs...))
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line with %q", err, tc.want)
			}
		})
	}
}
