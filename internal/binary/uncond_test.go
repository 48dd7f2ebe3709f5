package binary

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestCrossesUncondBranchMatchesProfgen feeds llvm-profgen-19 one LBR
// sample per pair of consecutive instructions (a, b): an older branch into a
// and a newer one out of b make the range [a, b], which llvm-profgen keeps
// only when no unconditional branch starts in [a, b). The ranges it keeps
// must be those where CrossesUncondBranch(a, b) is false. On AArch64 that
// is a call (BL, BLR), a return (RET) or a B, not a BR (an indirect jump).
func TestCrossesUncondBranchMatchesProfgen(t *testing.T) {
	tool := testutil.Tool(t, "llvm-profgen-19")
	paths := []string{"testdata/tricky.elf", "testdata/clang-nopie.elf", "testdata/gcc-cet.elf",
		"testdata/arm64-pie.elf", "testdata/arm64-nopie.elf", "testdata/arm64-tricky.elf"}
	if dir, ok := testutil.OptionalDataDir(); ok {
		more, _ := filepath.Glob(filepath.Join(dir, "binary", "*.elf"))
		paths = append(paths, more...)
		arm, _ := filepath.Glob(filepath.Join(dir, "arm64", "wordfreq", "binary"))
		paths = append(paths, arm...)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var insts []Inst
			for in := range f.Insts(0, ^uint64(0)) {
				insts = append(insts, in)
			}
			// AArch64 words llvm-profgen-19 does not decode (retaa, LSE, ...)
			// are not code for it: pairs with one are left out.
			llvmDecodes := profgenDisassembly(t, tool, path)
			want := map[[2]uint64]bool{}
			var script strings.Builder
			for i := 0; i+1 < len(insts); i++ {
				a, b := insts[i].Addr, insts[i+1].Addr
				if !llvmDecodes[a] || !llvmDecodes[b] {
					continue
				}
				fmt.Fprintf(&script, " 0x%x/0x7f0000000000/P/-/-/0 0x7f0000000010/0x%x/P/-/-/0\n", b, a)
				want[[2]uint64{a, b}] = !f.CrossesUncondBranch(a, b)
			}
			got := profgenRanges(t, tool, path, script.String(), f.PreferredBase())
			if len(got) == 0 {
				t.Fatal("llvm-profgen kept no range")
			}
			for r, keep := range want {
				if got[r] != keep {
					in, _ := f.Inst(r[0])
					t.Errorf("range %#x-%#x (first instruction %v, bytes % x): llvm-profgen keeps it: %v, CrossesUncondBranch: %v",
						r[0], r[1], in.Kind, bytesAt(f, r[0], int(in.Size)), got[r], !keep)
				}
			}
			t.Logf("%d ranges compared", len(want))
		})
	}
}

// profgenRanges runs llvm-profgen-19 --skip-symbolization on script and
// returns the ranges of its unsymbolized profile as canonical addresses.
func profgenRanges(t *testing.T, tool, binary, script string, base uint64) map[[2]uint64]bool {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "perf.script"), filepath.Join(dir, "out.txt")
	if err := os.WriteFile(in, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool, "--binary", binary, "--perfscript", in, "--output", out, "--skip-symbolization")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, msg)
	}
	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	got := map[[2]uint64]bool{}
	sc := bufio.NewScanner(fh)
	sc.Scan()
	n, _ := strconv.Atoi(sc.Text())
	for i := 0; i < n && sc.Scan(); i++ {
		rng, _, _ := strings.Cut(sc.Text(), ":")
		lo, hi, _ := strings.Cut(rng, "-")
		a, err1 := strconv.ParseUint(lo, 16, 64)
		b, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad range line %q", sc.Text())
		}
		got[[2]uint64{a + base, b + base}] = true
	}
	return got
}
