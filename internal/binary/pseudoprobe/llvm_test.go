package pseudoprobe

import (
	"bufio"
	"bytes"
	"debug/elf"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/testutil"
)

// TestMatchesLLVM decodes whole binaries (one with flow-sensitive
// discriminators: probes with discriminators) as llvm-profgen-19
// --show-pseudo-probe --show-disassembly-only does (every function's
// probes, placed at the symbol its GUID names) and compares the descriptor
// listing and the probes printed before each instruction.
func TestMatchesLLVM(t *testing.T) {
	for _, bin := range []string{"testdata/probe.elf", "testdata/probe-fs.elf"} {
		t.Run(filepath.Base(bin), func(t *testing.T) { compareWithLLVM(t, bin) })
	}
}

// TestMatchesLLVMOnTestData does the same on the probe test data's
// programs (make testdata).
func TestMatchesLLVMOnTestData(t *testing.T) {
	bins, _ := filepath.Glob(filepath.Join(testutil.DataDir(t, "probe"), "*", "binary"))
	if len(bins) == 0 {
		t.Skip("no probe binaries in the test data")
	}
	for _, bin := range bins {
		t.Run(filepath.Base(filepath.Dir(bin)), func(t *testing.T) { compareWithLLVM(t, bin) })
	}
}

func compareWithLLVM(t *testing.T, bin string) {
	profgen := testutil.Tool(t, "llvm-profgen-19")
	out, err := exec.Command(profgen, "--binary", bin, "--show-pseudo-probe", "--show-disassembly-only", "-o", "/dev/null").Output()
	if err != nil {
		t.Fatal(err)
	}
	wantDesc, wantProbes, insts := parseLLVMShow(t, out)
	if len(wantProbes) == 0 {
		t.Fatalf("llvm-profgen-19 printed no probes for %s", bin)
	}
	descs, table := decodeWholeFile(t, bin)
	var got bytes.Buffer
	if err := descs.Print(&got); err != nil {
		t.Fatal(err)
	}
	if got.String() != wantDesc {
		t.Errorf("descriptors:\n%s\nllvm-profgen-19:\n%s", got.String(), wantDesc)
	}
	gotProbes := map[uint64][]string{}
	for _, p := range table.All() {
		gotProbes[p.Addr] = append(gotProbes[p.Addr], descs.FormatProbe(&p))
	}
	compareProbeLines(t, gotProbes, wantProbes, insts)
}

// compareProbeLines compares the probes per address. llvm-profgen prints
// probes only before the instructions it disassembles: probes at other
// addresses (those of split-off code, whose deltas cross sections and come
// out garbled, in both decoders) cannot be compared.
func compareProbeLines(t *testing.T, got, want map[uint64][]string, insts map[uint64]bool) {
	t.Helper()
	bad := 0
	for addr, w := range want {
		if g := got[addr]; strings.Join(g, "\n") != strings.Join(w, "\n") {
			if bad++; bad <= 5 {
				t.Errorf("%#x: got\n%s\nllvm-profgen-19:\n%s", addr, strings.Join(g, "\n"), strings.Join(w, "\n"))
			}
		}
	}
	for addr, g := range got {
		if want[addr] == nil && insts[addr] {
			if bad++; bad <= 5 {
				t.Errorf("%#x: probes llvm-profgen-19 does not print:\n%s", addr, strings.Join(g, "\n"))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d addresses differ", bad, len(want))
	}
}

var llvmInstLine = regexp.MustCompile(`^ *([0-9a-f]+):\t`)

// parseLLVMShow splits llvm-profgen's output into the descriptor listing
// and, per instruction address, the probe lines printed before it; insts
// are the instruction addresses.
func parseLLVMShow(t *testing.T, out []byte) (desc string, probes map[uint64][]string, insts map[uint64]bool) {
	t.Helper()
	var d strings.Builder
	probes, insts = map[uint64][]string{}, map[uint64]bool{}
	var pending []string
	inDesc := true
	s := bufio.NewScanner(bytes.NewReader(out))
	for s.Scan() {
		line := s.Text()
		switch {
		case strings.HasPrefix(line, "Disassembly of"):
			inDesc = false
		case inDesc:
			d.WriteString(line + "\n")
		case strings.HasPrefix(line, " [Probe]:"):
			pending = append(pending, line)
		case llvmInstLine.MatchString(line):
			addr, err := strconv.ParseUint(llvmInstLine.FindStringSubmatch(line)[1], 16, 64)
			if err != nil {
				t.Fatal(err)
			}
			insts[addr] = true
			if len(pending) > 0 {
				probes[addr] = pending
				pending = nil
			}
		}
	}
	return strings.TrimRight(d.String(), "\n") + "\n", probes, insts
}

// decodeWholeFile decodes every probe of bin, each top-level record at
// the address of the symbol its GUID names (the last symbol of that name
// in .symtab, as llvm-profgen's map keeps).
func decodeWholeFile(t *testing.T, bin string) (*Descs, *Table) {
	t.Helper()
	ef, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	syms, err := ef.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	starts := map[uint64]uint64{}
	for _, s := range syms {
		starts[sampleprof.MD5Name(s.Name)] = s.Value
	}
	descData, probeData, err := Sections(ef)
	if err != nil {
		t.Fatal(err)
	}
	descs, err := DecodeDescs(descData)
	if err != nil {
		t.Fatal(err)
	}
	table, err := Decode(probeData, Options{FuncStart: func(g uint64) (uint64, bool) { a, ok := starts[g]; return a, ok }})
	if err != nil {
		t.Fatal(err)
	}
	return descs, table
}

// TestMatchesLLVMOnSplitFunctions compares a binary whose functions were
// split by -fsplit-machine-functions (.cold parts, whose probe records
// start with a sentinel probe naming the part).
func TestMatchesLLVMOnSplitFunctions(t *testing.T) {
	compareWithLLVM(t, "../../generate/testdata/cxx-probe-split.bin")
}
