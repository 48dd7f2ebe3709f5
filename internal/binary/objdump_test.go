package binary

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary/x86"
	"github.com/profgen/profgen/internal/testutil"
)

var (
	objdumpSymbol = regexp.MustCompile(`^([0-9a-f]+) <.*>:$`)
	objdumpInst   = regexp.MustCompile(`^\s*([0-9a-f]+):\s+\t(.*)$`)
)

// objdumpBlocks runs llvm-objdump-19 -d --no-show-raw-insn and returns, per
// symbol block it disassembled as code (not dumped as data), the addresses
// it lists and the instruction text ("<unknown>" where it did not decode).
func objdumpBlocks(t *testing.T, tool, path string) map[uint64]map[uint64]string {
	t.Helper()
	cmd := exec.Command(tool, "-d", "--no-show-raw-insn", path)
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
			blocks := objdumpBlocks(t, tool, path)
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
						want[a] = !strings.HasPrefix(text, "<unknown>")
						if in, ok := f.Inst(a); ok && want[a] && in.Kind != x86.MnemonicKind(text) {
							t.Errorf("%#x %q: kind %v, LLVM's %v", a, text, in.Kind, x86.MnemonicKind(text))
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

// dataMarker marks a block objdump dumped as data.
const dataMarker = ^uint64(0)

func hasKey(m map[uint64]string, k uint64) bool {
	_, ok := m[k]
	return ok
}
