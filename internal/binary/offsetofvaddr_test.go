package binary

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOffsetOfVaddr: the file offset of a virtual address in the code,
// the inverse of VaddrOfOffset; none outside the executable segments.
func TestOffsetOfVaddr(t *testing.T) {
	f, err := Open("testdata/clang-pie-stripped.elf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tests := []struct {
		vaddr, off uint64
		ok         bool
	}{
		{0x0, 0x0, true},
		{0x520, 0x520, true},
		{0x92f, 0x92f, true},
		{0x930, 0, false},  // past the code segment's file size
		{0x1e10, 0, false}, // data
	}
	for _, tt := range tests {
		off, ok := f.OffsetOfVaddr(tt.vaddr)
		if off != tt.off || ok != tt.ok {
			t.Errorf("OffsetOfVaddr(%#x) = %#x, %v; want %#x, %v", tt.vaddr, off, ok, tt.off, tt.ok)
		}
		if v, _ := f.VaddrOfOffset(off); ok && v != tt.vaddr {
			t.Errorf("VaddrOfOffset(%#x) = %#x, want %#x", off, v, tt.vaddr)
		}
	}
}

// TestGoBuildID: the Go build id of a Go binary is what go tool buildid
// prints; a C binary has none.
func TestGoBuildID(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go program")
	}
	dir := t.TempDir()
	src, exe := filepath.Join(dir, "main.go"), filepath.Join(dir, "prog")
	os.WriteFile(src, []byte("package main\nfunc main() {}\n"), 0o644)
	if out, err := exec.Command("go", "build", "-o", exe, src).CombinedOutput(); err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	want, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	f, err := Open(exe, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GoBuildID(); got != strings.TrimSpace(string(want)) {
		t.Errorf("GoBuildID = %q, want %q", got, want)
	}
	c, err := Open("testdata/clang-pie-stripped.elf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if id := c.GoBuildID(); id != "" {
		t.Errorf("a C binary's GoBuildID = %q", id)
	}
}
