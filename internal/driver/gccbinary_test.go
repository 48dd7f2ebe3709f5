package driver

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/testutil"
)

// GCC-built binaries (issue 27): testdata/programs/coldsplit.c, built by
// build.sh with gcc-12 -O2 -g -fcf-protection (DWARF 5, endbr64), has
// checksum's rare branch split off into checksum.cold, placed in
// .text.unlikely before main, far from checksum; mix is in .text.hot. The
// cold part's samples belong to checksum's lines 6 and 7 (report(s) and
// s ^= rare), and no function is named checksum.cold.

const coldsplitBinary = "../../testdata/programs/bin/coldsplit-gcc"

// TestGCCColdPartLBR: the LLVM text profile of lbrgen's exact LBR trace
// (scripts/testdata.d/22-lbr-gcc.sh; its binary is a copy of the
// committed one) attributes the cold part to checksum
// (TestGCCBinariesMatchLLVM compares it with llvm-profgen-19's).
func TestGCCColdPartLBR(t *testing.T) {
	dir := testutil.DataDir(t, "lbr", "coldsplit-gcc")
	got := convert(t, Options{PerfScript: filepath.Join(dir, "single.script"), Binaries: []string{filepath.Join(dir, "binary")}, Format: "text"})
	checkColdPart(t, got)
	if mix := readText(t, got).Functions["mix"]; mix == nil || mix.HeadSamples == 0 {
		t.Errorf("mix (.text.hot) without head samples: %+v", mix)
	}
}

// TestGCCBinariesMatchLLVM: the LLVM text profiles of the LBR traces of
// gcc-12 builds (wordfreq-gcc; sqlite-gcc, sqlite-gcc-cet and
// coldsplit-gcc of 22-lbr-gcc.sh: DWARF 5, endbr64, .text.hot and
// .text.unlikely, cold parts) are llvm-profgen-19's, byte for byte. GCC's
// plain discriminators go through LLVM's decoding, 15 included
// (symbolize.BaseDiscriminator).
func TestGCCBinariesMatchLLVM(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(testutil.DataDir(t, "lbr"), "*-gcc*", "single.script"))
	if len(dirs) == 0 {
		t.Skip("no LBR traces of gcc builds (make testdata)")
	}
	for _, script := range dirs {
		dir := filepath.Dir(script)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			binary := filepath.Join(dir, "binary")
			got := convert(t, Options{PerfScript: script, Binaries: []string{binary}, Format: "text"})
			want := llvmProfgenArgs(t, "--perfscript", script, "--binary", binary, "--format=text")
			if !bytes.Equal(got, want) {
				t.Errorf("differs from llvm-profgen-19 (%d vs %d bytes)", len(got), len(want))
			}
		})
	}
}

// TestGCCColdPartStacks: the same from call stacks, perf record -e
// cpu-clock -g of the program here.
func TestGCCColdPartStacks(t *testing.T) {
	testutil.Tool(t, "perf")
	data := filepath.Join(t.TempDir(), "perf.data")
	if out, err := exec.Command("perf", "record", "-q", "-e", "cpu-clock", "-c", "20000", "-g", "-o", data, "--", coldsplitBinary, "30000000").CombinedOutput(); err != nil {
		t.Skipf("perf record: %v\n%s", err, out)
	}
	checkColdPart(t, convert(t, Options{PerfData: data, Binaries: []string{coldsplitBinary}, Format: "text"}))
}

// checkColdPart checks that checksum's cold lines have samples in the
// text profile, and that no function is named after a cold part.
func checkColdPart(t *testing.T, text []byte) {
	t.Helper()
	p := readText(t, text)
	for name := range p.Functions {
		if strings.Contains(name, ".cold") {
			t.Errorf("a function named %s", name)
		}
	}
	checksum := p.Functions["checksum"]
	if checksum == nil {
		t.Fatalf("no checksum in\n%s", text)
	}
	for _, line := range []uint32{6, 7} {
		if r := checksum.Body[sampleprof.LineLocation{LineOffset: line}]; r == nil || r.Samples == 0 {
			t.Errorf("checksum's cold line %d without samples:\n%s", line, text)
		}
	}
}

func readText(t *testing.T, text []byte) *sampleprof.Profile {
	t.Helper()
	p, err := sampleprof.Read(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
