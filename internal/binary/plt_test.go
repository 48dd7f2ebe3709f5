package binary

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestPLTSymbolsMatchObjdump: every stub objdump names `<name@plt>` has
// that name and address here.
func TestPLTSymbolsMatchObjdump(t *testing.T) {
	objdump := testutil.Tool(t, "llvm-objdump-19")
	re := regexp.MustCompile(`(?m)^([0-9a-f]+) <([^>]+@plt)>:`)
	paths := []string{"testdata/clang-pie.elf", "testdata/clang-nopie.elf", "testdata/clang-cet.elf", "testdata/gcc-cet.elf",
		"../../testdata/callstack/forky", "../../testdata/programs/bin/wordfreq-nopie"}
	if dir, ok := testutil.OptionalDataDir("lbr", "sqlite"); ok {
		paths = append(paths, filepath.Join(dir, "binary"))
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			if _, err := os.Stat(path); err != nil {
				t.Skip(err)
			}
			out, err := exec.Command(objdump, "-d", path).Output()
			if err != nil {
				t.Fatal(err)
			}
			f, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got := map[uint64]string{}
			for _, s := range f.PLTSymbols() {
				got[s.Addr] = s.Name
			}
			want := re.FindAllStringSubmatch(string(out), -1)
			if len(want) == 0 {
				t.Skip("no PLT stubs")
			}
			for _, m := range want {
				addr, _ := strconv.ParseUint(m[1], 16, 64)
				if got[addr] != m[2] {
					t.Errorf("%#x: got %q, objdump says %q", addr, got[addr], m[2])
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d stubs, objdump names %d", len(got), len(want))
			}
		})
	}
}
