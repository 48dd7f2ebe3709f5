package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCommitAndAbort(t *testing.T) {
	tests := []struct {
		name   string
		commit bool
		want   string // content of the target afterwards
	}{
		{"commit replaces", true, "new"},
		{"abort keeps old", false, "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.prof")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := Create(path)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("new")
			if tt.commit {
				if err := f.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			f.Abort()
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("content = %q, want %q", got, tt.want)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("directory holds %d files, want 1 (no temp left)", len(entries))
			}
		})
	}
}

// TestSpecialFile: a device such as /dev/null is written in place, never
// replaced by a renamed regular file.
func TestSpecialFile(t *testing.T) {
	fi, err := os.Stat(os.DevNull)
	if err != nil || fi.Mode().IsRegular() {
		t.Skip("no device /dev/null")
	}
	f, err := Create(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("data")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	fi, err = os.Stat(os.DevNull)
	if err != nil || fi.Mode().IsRegular() {
		t.Fatalf("/dev/null was replaced: %v %v", fi.Mode(), err)
	}
}
