package symbolize

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestSplitDWARFRefused: a -gsplit-dwarf binary keeps its functions in a
// .dwo file, which is not read: New says so instead of returning a table
// without them.
func TestSplitDWARFRefused(t *testing.T) {
	clang := testutil.Tool(t, "clang-19")
	dir := t.TempDir()
	src := filepath.Join(dir, "t.c")
	if err := os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "t")
	cmd := exec.Command(clang, "-g", "-gsplit-dwarf", src, "-o", bin)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := f.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(d, Options{}); err == nil || !strings.Contains(err.Error(), "split DWARF") {
		t.Errorf("New: %v, want a split DWARF error", err)
	}
}
