package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutDir: Run makes a missing output directory and its parents once
// the options are valid, refuses a file, and makes nothing for options it
// refuses.
func TestOutDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	noInput := filepath.Join(dir, "none-*.perf.data")
	for _, tc := range []struct {
		name, out string
		formats   []string
		wantErr   string // a part of Run's error
		wantDir   bool   // whether out is a directory after Run
	}{
		{"missing, with parents", filepath.Join(dir, "a", "b"), []string{"text"}, noInput, true},
		{"existing", dir, []string{"text"}, noInput, true},
		{"a file", file, []string{"text"}, "-o " + file + ": not a directory", false},
		{"bad format", filepath.Join(dir, "c"), []string{"perf"}, `--format "perf"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), Options{Inputs: []string{noInput}, Formats: tc.formats, OutDir: tc.out})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want one with %q", err, tc.wantErr)
			}
			st, statErr := os.Stat(tc.out)
			if isDir := statErr == nil && st.IsDir(); isDir != tc.wantDir {
				t.Errorf("%s is a directory: %v, want %v", tc.out, isDir, tc.wantDir)
			}
		})
	}
}
