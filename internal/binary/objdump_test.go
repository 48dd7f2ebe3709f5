package binary

import (
	"bufio"
	"debug/elf"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary/arm64"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/binary/x86"
	"github.com/profgen/profgen/internal/testutil"
)

var (
	objdumpSymbol = regexp.MustCompile(`^([0-9a-f]+) <.*>:$`)
	objdumpInst   = regexp.MustCompile(`^\s*([0-9a-f]+):\s+\t(.*)$`)
	objdumpData   = regexp.MustCompile(`^\s*([0-9a-f]+):(?: [0-9a-f]{2})+\s+\t(\..*)$`)
)

// objdumpView is how the tests read llvm-objdump-19 for one machine.
type objdumpView struct {
	args []string
	// kind classifies an instruction text.
	kind func(text string) insn.Kind
	// dataWords: data lines (.word under a $d mapping symbol) are
	// instructions of their own for the decoder, with no kind to compare;
	// else a data dump makes its block incomparable.
	dataWords bool
	// valid says whether the decoder must decode the instruction text.
	valid func(text string) bool
}

// objdumpViews: x86-64 instructions are valid where LLVM decodes them; on
// AArch64 every word is an instruction (LLVM's <unknown> included), and
// -z lists runs of zero words, which objdump otherwise elides.
var objdumpViews = map[elf.Machine]objdumpView{
	elf.EM_X86_64: {
		args: []string{"-d", "--no-show-raw-insn"}, kind: x86.MnemonicKind,
		valid: func(text string) bool { return !strings.HasPrefix(text, "<unknown>") },
	},
	elf.EM_AARCH64: {
		args: []string{"-d", "-z", "--no-show-raw-insn"}, kind: arm64.MnemonicKind, dataWords: true,
		valid: func(string) bool { return true },
	},
}

// objdumpBlocks runs llvm-objdump-19 -d --no-show-raw-insn and returns, per
// symbol block it disassembled as code (not dumped as data), the addresses
// it lists and the instruction text ("<unknown>" where it did not decode).
func objdumpBlocks(t *testing.T, tool, path string, view objdumpView) map[uint64]map[uint64]string {
	t.Helper()
	cmd := exec.Command(tool, append(view.args, path)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}()
	blocks := map[uint64]map[uint64]string{}
	var cur map[uint64]string
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := objdumpSymbol.FindStringSubmatch(line); m != nil {
			a, _ := strconv.ParseUint(m[1], 16, 64)
			cur = map[uint64]string{}
			blocks[a] = cur
			continue
		}
		if cur == nil || strings.TrimSpace(line) == "" || strings.HasPrefix(line, "Disassembly of") {
			continue
		}
		m := objdumpInst.FindStringSubmatch(line)
		if m == nil && view.dataWords {
			m = objdumpData.FindStringSubmatch(line)
		}
		if m == nil { // a data dump: not comparable
			cur[dataMarker] = ""
			continue
		}
		a, _ := strconv.ParseUint(m[1], 16, 64)
		cur[a] = strings.TrimSpace(m[2])
	}
	return blocks
}

// TestBoundariesMatchObjdump compares the instruction boundaries of every
// range that llvm-objdump-19 also disassembles from the same symbol.
func TestBoundariesMatchObjdump(t *testing.T) {
	tool := testutil.Tool(t, "llvm-objdump-19")
	for _, path := range referenceBinaries(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			view, ok := objdumpViews[f.ELF().Machine]
			if !ok {
				t.Fatalf("no objdump view of %v", f.ELF().Machine)
			}
			blocks := objdumpBlocks(t, tool, path, view)
			all := walkAll(t, f)
			c := f.code
			compared := map[int]bool{} // ranges objdump decodes from the same start, as code
			want := map[uint64]bool{}
			for i, start := range c.starts {
				block, ok := blocks[start]
				if !ok || hasKey(block, dataMarker) {
					continue
				}
				compared[i] = true
				for a, text := range block {
					if a < c.ends[i] {
						want[a] = view.valid(text)
						if in, ok := f.Inst(a); ok && want[a] && !isData(text) && in.Kind != view.kind(text) {
							t.Errorf("%#x %q: kind %v, LLVM's %v", a, text, in.Kind, view.kind(text))
						}
					}
				}
			}
			got := map[uint64]bool{}
			for a, ok := range all {
				if compared[c.rangeAt(a)] {
					got[a] = ok
				}
			}
			reportDiff(t, f, got, want)
			t.Logf("%d addresses compared", len(want))
		})
	}
}

// isData reports an objdump data line (.word, .byte, ...).
func isData(text string) bool { return strings.HasPrefix(text, ".") }

// dataMarker marks a block objdump dumped as data.
const dataMarker = ^uint64(0)

func hasKey(m map[uint64]string, k uint64) bool {
	_, ok := m[k]
	return ok
}
