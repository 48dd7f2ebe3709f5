package mmapfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestMap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("hello"), 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Map(f)
	f.Close()
	if err != nil || string(b) != "hello" {
		t.Fatalf("Map = %q, %v", b, err)
	}
	if err := Unmap(b); err != nil {
		t.Error(err)
	}
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	if _, err := Map(r); !errors.Is(err, ErrNotRegular) {
		t.Errorf("pipe: %v", err)
	}
}
