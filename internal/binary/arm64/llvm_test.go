package arm64

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/testutil"
)

// objdumpInst matches an instruction line of llvm-objdump -d --no-show-raw-insn.
var objdumpInst = regexp.MustCompile(`^\s*([0-9a-f]+):\s+\t(.*)$`)

// llvmTexts assembles the words as one function (.inst, so that
// llvm-objdump-19 disassembles them as code) and returns LLVM's text of
// each ("<unknown>" where it decodes none).
func llvmTexts(t *testing.T, words []uint32) []string {
	t.Helper()
	clang, objdump := testutil.Tool(t, "clang-19"), testutil.Tool(t, "llvm-objdump-19")
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString(".text\n.globl f\nf:\n")
	for _, w := range words {
		fmt.Fprintf(&src, ".inst 0x%08x\n", w)
	}
	asm, obj := filepath.Join(dir, "w.s"), filepath.Join(dir, "w.o")
	if err := os.WriteFile(asm, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(clang, "--target=aarch64-linux-gnu", "-c", "-o", obj, asm).CombinedOutput(); err != nil {
		t.Fatalf("clang-19: %v\n%s", err, out)
	}
	out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", obj).Output()
	if err != nil {
		t.Fatalf("llvm-objdump-19: %v", err)
	}
	texts := make([]string, len(words))
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		m := objdumpInst.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		a, _ := strconv.ParseUint(m[1], 16, 64)
		if a%4 == 0 && a/4 < uint64(len(words)) {
			texts[a/4] = strings.TrimSpace(m[2])
		}
	}
	return texts
}

// branchSpaceWords draws words of the branch, exception and system group
// (where every control transfer lies), and some of everything else.
func branchSpaceWords(r *rand.Rand, n int) []uint32 {
	words := []uint32{
		0xd65f03c0, 0xd65f0bff, 0xd65f0fff, 0xd69f0bff, 0xd6bf03e0, 0xd69f03e0, // ret, retaa, retab, eretaa, drps, eret
		0xd65f0be3, 0x5500005f, 0x5520009f, 0xd63f0c9f, 0xd71f0c3f, 0xd73f0c22, // PAuth_LR, blrabz, brab, blrab
		0x54000010, 0xd61f0200, 0xd63f0100, 0x94000000, 0x14000000, 0xd503245f, // bc.eq, br, blr, bl, b, bti c
	}
	for len(words) < n {
		w := r.Uint32()
		switch r.IntN(4) {
		case 1: // branches, exception generation, system
			w = w&^(7<<26) | 0b101<<26
		case 2: // unconditional branch (register)
			w = w&^(0x7f<<25) | 0b1101011<<25
		case 3: // the same with op3 = 00001x, Rn and Rm all ones or zeros, as in PAuth branches
			rn, rm := r.Uint32N(2)*0x1f, r.Uint32N(2)*0x1f
			w = w&0x01e00400 | 0xd61f0800 | rn<<5 | rm
		}
		words = append(words, w)
	}
	return words
}

// TestKindsMatchLLVM: on words of the branch group drawn at random, the
// kind is the one llvm-objdump-19's mnemonic says, and plain where LLVM
// decodes nothing.
func TestKindsMatchLLVM(t *testing.T) {
	words := branchSpaceWords(rand.New(rand.NewPCG(14, 64)), 60000)
	texts := llvmTexts(t, words)
	counts := map[insn.Kind]int{}
	bad := 0
	for i, w := range words {
		want := MnemonicKind(texts[i])
		counts[want]++
		if got := KindOf(w); got != want {
			if bad++; bad <= 20 {
				t.Errorf("%08x %q: kind %v, LLVM's %v", w, texts[i], got, want)
			}
		}
	}
	t.Logf("LLVM's kinds: %v", counts)
	if bad > 0 {
		t.Errorf("%d of %d words differ", bad, len(words))
	}
}
