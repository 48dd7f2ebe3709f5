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
	if dir, ok := testutil.OptionalDataDir("arm64"); ok {
		arm, _ := filepath.Glob(filepath.Join(dir, "*", "binary"))
		paths = append(paths, arm...)
	}
	paths = append(paths, arm64PLTBinaries(t)...)
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

// arm64PLTBinaries links a program calling libc with each of GNU ld's
// AArch64 PLT layouts: 16-byte entries, BTI (bti c first), PAC
// (autia1716 before br x17) and both. None without clang-19 and the
// aarch64 cross linker.
func arm64PLTBinaries(t *testing.T) []string {
	if !testutil.HasTool("clang-19") || !testutil.HasTool("aarch64-linux-gnu-ld") {
		return nil
	}
	clang := testutil.Tool(t, "clang-19")
	dir := t.TempDir()
	src := filepath.Join(dir, "plt.c")
	prog := "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n" +
		"int main(int c, char **v) { printf(\"%zu\\n\", strlen(v[0])); puts(v[0]); return atoi(v[0]) + abs(c); }\n"
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, ld := range []string{"-Wl,-z,nopack-relative-relocs", "-Wl,-z,force-bti", "-Wl,-z,pac-plt", "-Wl,-z,force-bti,-z,pac-plt"} {
		bin := filepath.Join(dir, "arm64-plt-"+strconv.Itoa(i))
		cmd := exec.Command(clang, "--target=aarch64-linux-gnu", "-O2", "-mbranch-protection=standard", ld, "-o", bin, src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Logf("clang-19 %s: %v\n%s", ld, err, msg)
			continue
		}
		out = append(out, bin)
	}
	return out
}
