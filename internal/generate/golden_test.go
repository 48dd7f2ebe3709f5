package generate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestGolden generates the text profiles of the committed aggregated
// counters (testdata/lbr/*.raw) and compares them with testdata/golden/.
func TestGolden(t *testing.T) {
	for _, name := range testBinaries {
		bin := strings.TrimSuffix(name, ".bin")
		t.Run(bin, func(t *testing.T) {
			in := openTestInput(t, filepath.Join("testdata", name))
			f, err := os.Open(filepath.Join("testdata", "lbr", bin+".raw"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			c, err := readUnsymbolized(f, in.base)
			if err != nil {
				t.Fatal(err)
			}
			got := profileText(t, Profile(c, in.code, in.sym, in.opts))
			golden := filepath.Join("testdata", "golden", bin+".txt")
			if testutil.Update() {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("profile differs from %s (run with -update to accept)", golden)
			}
		})
	}
}

// TestSeparateDebugInfo generates from a binary without DWARF and its debug
// file (objcopy --only-keep-debug), as --debug-binary does: the profile is
// the same as from the binary with DWARF.
func TestSeparateDebugInfo(t *testing.T) {
	objcopy := testutil.Tool(t, "objcopy")
	dir := t.TempDir()
	bin, debug := filepath.Join(dir, "cxx-pie.bin"), filepath.Join(dir, "cxx-pie.debug")
	runTool(t, objcopy, "--only-keep-debug", "testdata/cxx-pie.bin", debug)
	runTool(t, objcopy, "--strip-debug", "testdata/cxx-pie.bin", bin)
	in := openTestInputDebug(t, bin, debug)
	f, err := os.Open("testdata/lbr/cxx-pie.raw")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := readUnsymbolized(f, in.base)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/golden/cxx-pie.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := profileText(t, Profile(c, in.code, in.sym, in.opts)); !bytes.Equal(got, want) {
		t.Errorf("profile with a separate debug file differs from testdata/golden/cxx-pie.txt")
	}
}
