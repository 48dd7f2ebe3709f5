package binary

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// referenceBinaries are the binaries compared against LLVM's disassembler:
// the checked-in ones (PE images too) and this test binary itself (a few
// MB of Go code).
func referenceBinaries(t *testing.T) []string {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.elf"))
	exes, _ := filepath.Glob(filepath.Join("testdata", "*.exe"))
	paths = append(paths, exes...)
	if self, err := os.Executable(); err == nil && !testing.Short() && hasSymtab(self) {
		paths = append(paths, self) // when built with symbols (go test -c)
	}
	if dir, ok := testutil.OptionalDataDir("binary"); ok {
		more, _ := filepath.Glob(filepath.Join(dir, "*.elf"))
		paths = append(paths, more...)
		arm, _ := filepath.Glob(filepath.Join(dir, "arm64", "*", "binary")) // 80-arm64.sh
		paths = append(paths, arm...)
	}
	// More binaries to check, for example large unstripped ones at hand.
	if more := os.Getenv("PROFGEN_BINARY_REFERENCE"); more != "" {
		paths = append(paths, filepath.SplitList(more)...)
	}
	return paths
}

func hasSymtab(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return f.Section(".symtab") != nil
}

// walkAll decodes every range of f as llvm-profgen does, reporting invalid
// bytes as well: addr -> decoded.
func walkAll(t *testing.T, f *File) map[uint64]bool {
	t.Helper()
	c := f.code
	out := map[uint64]bool{}
	for i := range c.starts {
		start, end := c.starts[i], c.ends[i]
		sec := c.secs[c.secOf[i]]
		buf := make([]byte, min(end+uint64(c.arch.maxInstLen)-1, c.limits[i])-start)
		if _, err := sec.ReadAt(buf, int64(start-sec.Addr)); err != nil {
			t.Fatal(err)
		}
		for off := uint64(0); off < end-start; {
			n, _, ok := c.arch.decode(buf[off:])
			out[start+off] = ok
			off += uint64(n)
		}
	}
	return out
}

// profgenListing runs llvm-profgen-19 --show-disassembly-only on path
// (with more flags, if given) and returns its lines.
func profgenListing(t *testing.T, tool, path string, flags ...string) []testutil.DisasmLine {
	t.Helper()
	args := append([]string{"--show-disassembly-only", "--binary", path, "--output", os.DevNull}, flags...)
	out, err := exec.Command(tool, args...).Output()
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	lines, err := testutil.ParseDisassembly(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// profgenDisassembly runs llvm-profgen-19 --show-disassembly-only: the
// addresses it decodes, and whether it decoded an instruction there.
// Addresses past the end of their section (llvm-profgen reads beyond the
// section when a symbol of it lies past its end) are left out.
func profgenDisassembly(t *testing.T, tool, path string) map[uint64]bool {
	t.Helper()
	got := map[uint64]bool{}
	for _, l := range profgenListing(t, tool, path) {
		if l.Inst && !l.PastSection() {
			got[l.Addr] = strings.TrimSpace(l.Rest) != "<unknown>"
		}
	}
	return got
}

func TestDecodeMatchesProfgen(t *testing.T) {
	tool := testutil.Tool(t, "llvm-profgen-19")
	for _, path := range referenceBinaries(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := Open(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			want := profgenDisassembly(t, tool, path)
			if f.ELF().Machine == elf.EM_AARCH64 {
				allWordsValid(t, want)
			}
			got := walkAll(t, f)
			reportDiff(t, f, got, want)
			t.Logf("%d addresses compared", len(want))
		})
	}
}

// allWordsValid turns llvm-profgen-19's AArch64 disassembly into the
// decoder's: every word it lists is an instruction. llvm-profgen-19
// disassembles with no extension enabled and leaves the words it cannot
// decode (LSE, RCPC, SVE, retaa, blraa, ...) out of its code; profgen
// counts them as plain instructions, as llvm-objdump-19 (all extensions)
// decodes them (TestBoundariesMatchObjdump).
func allWordsValid(t *testing.T, want map[uint64]bool) {
	t.Helper()
	unknown := 0
	for a, ok := range want {
		if !ok {
			unknown++
			want[a] = true
		}
	}
	t.Logf("%d words llvm-profgen-19 does not decode, taken as instructions", unknown)
}

// reportDiff lists the first differences between two addr -> valid maps.
func reportDiff(t *testing.T, f *File, got, want map[uint64]bool) {
	t.Helper()
	var diffs []uint64
	for a, ok := range want {
		if g, seen := got[a]; !seen || g != ok {
			diffs = append(diffs, a)
		}
	}
	for a, ok := range got {
		if _, seen := want[a]; !seen && ok {
			diffs = append(diffs, a)
		}
	}
	sort.Slice(diffs, func(i, j int) bool { return diffs[i] < diffs[j] })
	var missing, extra int
	for _, a := range diffs {
		if want[a] {
			missing++
		} else {
			extra++
		}
	}
	dataRanges := map[int]bool{}
	for a, ok := range want {
		if !ok {
			dataRanges[f.code.rangeAt(a)] = true
		}
	}
	inData := 0
	for _, a := range diffs {
		if dataRanges[f.code.rangeAt(a)] {
			inData++
		} else if os.Getenv("PROFGEN_SHOW_CODE_DIFFS") != "" {
			t.Logf("outside data: %#x got %v want %v bytes % x", a, got[a], want[a], bytesAt(f, a, 12))
		}
	}
	if len(diffs) > 0 {
		t.Logf("%d of %d differences are in symbol ranges where LLVM meets invalid bytes (data in text)", inData, len(diffs))
		t.Logf("%d LLVM instructions not decoded, %d decoded that LLVM does not", missing, extra)
	}
	for i, a := range diffs {
		if i == 20 {
			t.Errorf("... %d differences in all", len(diffs))
			break
		}
		g, gs := got[a]
		w, ws := want[a]
		t.Errorf("%#x: got decoded=%v (present %v), want decoded=%v (present %v); bytes % x",
			a, g, gs, w, ws, bytesAt(f, a, 12))
	}
}

func bytesAt(f *File, addr uint64, n int) []byte {
	for _, s := range f.elf.Sections {
		if s.Type != elf.SHT_NOBITS && addr >= s.Addr && addr < s.Addr+s.Size {
			b := make([]byte, min(uint64(n), s.Addr+s.Size-addr))
			s.ReadAt(b, int64(addr-s.Addr))
			return b
		}
	}
	return nil
}

var _ = fmt.Sprint
