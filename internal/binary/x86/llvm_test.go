package x86

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

// llvmFirstInsts assembles each case as a function of its own and reads
// back, with llvm-objdump-19, the length, validity and kind of the first
// instruction LLVM decodes in it.
func llvmFirstInsts(t *testing.T, cases [][]byte) (lens []int, valid []bool, kinds []insn.Kind) {
	t.Helper()
	clang, objdump := testutil.Tool(t, "clang-19"), testutil.Tool(t, "llvm-objdump-19")
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString(".text\n")
	for i, c := range cases {
		fmt.Fprintf(&src, ".globl c%d\nc%d:\n.byte ", i, i)
		for j, x := range c {
			if j > 0 {
				src.WriteString(",")
			}
			fmt.Fprintf(&src, "%d", x)
		}
		src.WriteString("\n")
	}
	fmt.Fprintf(&src, ".globl c%d\nc%d:\nint3\n", len(cases), len(cases))
	asm, obj := filepath.Join(dir, "cases.s"), filepath.Join(dir, "cases.o")
	if err := os.WriteFile(asm, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(clang, "-c", "-o", obj, asm).CombinedOutput(); err != nil {
		t.Fatalf("clang-19: %v\n%s", err, out)
	}
	out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", obj).Output()
	if err != nil {
		t.Fatalf("llvm-objdump-19: %v", err)
	}
	return parseFirstInsts(t, string(out), len(cases))
}

var caseHeader = regexp.MustCompile(`^([0-9a-f]+) <c(\d+)>:$`)

// objdumpInst matches an instruction line of llvm-objdump -d.
var objdumpInst = regexp.MustCompile(`^\s*([0-9a-f]+):\s+\t(.*)$`)

func parseFirstInsts(t *testing.T, out string, n int) (lens []int, valid []bool, kinds []insn.Kind) {
	starts := make([]uint64, n+1)
	firsts := make([]string, n+1)
	seconds := make([]uint64, n+1)
	cur := -1
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if m := caseHeader.FindStringSubmatch(line); m != nil {
			cur, _ = strconv.Atoi(m[2])
			starts[cur], _ = strconv.ParseUint(m[1], 16, 64)
			continue
		}
		m := objdumpInst.FindStringSubmatch(line)
		if m == nil || cur < 0 {
			continue
		}
		a, _ := strconv.ParseUint(m[1], 16, 64)
		if firsts[cur] == "" {
			firsts[cur] = strings.TrimSpace(m[2])
		} else if seconds[cur] == 0 {
			seconds[cur] = a
		}
	}
	for i := 0; i < n; i++ {
		end := seconds[i]
		if end == 0 {
			end = starts[i+1]
		}
		lens = append(lens, int(end-starts[i]))
		valid = append(valid, !strings.HasPrefix(firsts[i], "<unknown>"))
		kinds = append(kinds, MnemonicKind(firsts[i]))
	}
	return lens, valid, kinds
}

// fastCases makes encodings the fast path may handle: allowed prefixes,
// an optional REX, an opcode of its tables, and random bytes after.
func fastCases(r *rand.Rand, n int) [][]byte {
	prefixes := []byte{0x66, 0x2e, 0x3e, 0x64, 0x65}
	var out [][]byte
	for len(out) < n {
		var b []byte
		for k := r.IntN(3); k > 0; k-- {
			b = append(b, prefixes[r.IntN(len(prefixes))])
		}
		if r.IntN(2) == 0 {
			b = append(b, 0x40|byte(r.IntN(16)))
		}
		if r.IntN(3) == 0 {
			b = append(b, 0x0f)
		}
		for k := 0; k < 12; k++ {
			b = append(b, byte(r.Uint32()))
		}
		if _, _, ok := fastDecode(b); ok {
			out = append(out, b)
		}
	}
	return out
}

// TestFastDecodeMatchesLLVM: wherever the fast path answers, LLVM's
// disassembler gives the same length and kind.
func TestFastDecodeMatchesLLVM(t *testing.T) {
	cases := fastCases(rand.New(rand.NewPCG(7, 8)), 20000)
	lens, valid, kinds := llvmFirstInsts(t, cases)
	kindCount := map[insn.Kind]int{}
	for _, k := range kinds {
		kindCount[k]++
	}
	t.Logf("LLVM's kinds of the cases: %v", kindCount)
	bad := 0
	for i, c := range cases {
		n, kind, _ := fastDecode(c)
		if n != lens[i] || !valid[i] || kind != kinds[i] {
			if bad++; bad <= 20 {
				t.Errorf("% x: fast %d %v; LLVM %d valid=%v %v", c, n, kind, lens[i], valid[i], kinds[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d differ", bad, len(cases))
	}
}
