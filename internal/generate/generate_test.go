package generate

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
	"github.com/profgen/profgen/internal/testutil"
)

var testBinaries = []string{"cxx-pie.bin", "cxx-nopie-dwarf4.bin", "gcc-nopie.bin", "gcc-pie.bin"}

// preferredBase is the vaddr of the first executable PT_LOAD.
func preferredBase(f *elf.File) uint64 {
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			return p.Vaddr
		}
	}
	return 0
}

type testInput struct {
	elf  *elf.File
	code *testCode
	sym  *symbolize.Table
	base uint64
	opts Options
}

func openTestInput(t testing.TB, path string) *testInput {
	return openTestInputDebug(t, path, path)
}

// openTestInputDebug opens a binary whose DWARF is in the file debug.
func openTestInputDebug(t testing.TB, path, debug string) *testInput {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	df, err := elf.Open(debug)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { df.Close() })
	code, err := newTestCode(f)
	if err != nil {
		t.Fatal(err)
	}
	base := preferredBase(f)
	d, err := df.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	sym, err := symbolize.New(d, symbolize.Options{PreferredBase: base})
	if err != nil {
		t.Fatal(err)
	}
	sym.MarkEntries(codeSymbols(f))
	return &testInput{f, code, sym, base, Options{FSDiscriminators: hasSymbol(f, FSDiscriminatorSymbol)}}
}

func hasSymbol(f *elf.File, name string) bool {
	syms, _ := f.Symbols()
	for _, s := range syms {
		if s.Name == name {
			return true
		}
	}
	return false
}

func codeSymbols(f *elf.File) []symbolize.Symbol {
	syms, _ := f.Symbols()
	var out []symbolize.Symbol
	for _, s := range syms {
		if int(s.Section) < len(f.Sections) && s.Section != elf.SHN_UNDEF && f.Sections[s.Section].Flags&elf.SHF_EXECINSTR != 0 {
			out = append(out, symbolize.Symbol{Addr: s.Value, Name: s.Name})
		}
	}
	return out
}

func profileText(t testing.TB, p *sampleprof.Profile) []byte {
	var buf bytes.Buffer
	if err := sampleprof.WriteText(&buf, p); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestMatchesLLVMProfgen compares the text profile of synthetic counters
// with llvm-profgen-19's from the same counters as an unsymbolized profile.
func TestMatchesLLVMProfgen(t *testing.T) {
	ref := testutil.Tool(t, "llvm-profgen-19")
	paths := []string{"testdata/cxx-fsdiscr.bin", "testdata/cxx-split.bin"}
	for _, name := range testBinaries {
		paths = append(paths, filepath.Join("testdata", name))
	}
	if extra := os.Getenv("PROFGEN_GENERATE_CHECK"); extra != "" {
		paths = append(paths, strings.Split(extra, ":")...)
	}
	for _, path := range paths {
		name := filepath.Base(path)
		for seed := int64(1); seed <= 3; seed++ {
			in := openTestInput(t, path)
			c := synthCounters(in.code, seed)
			dir := t.TempDir()
			var raw bytes.Buffer
			writeUnsymbolized(&raw, c, in.base)
			rawPath := filepath.Join(dir, "raw.txt")
			os.WriteFile(rawPath, raw.Bytes(), 0o644)
			refPath := filepath.Join(dir, "ref.txt")
			start := time.Now()
			out, err := exec.Command(ref, "--binary="+path, "--unsymbolized-profile="+rawPath,
				"--format=text", "--output="+refPath).CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", name, err, out)
			}
			refTime := time.Since(start)
			want, _ := os.ReadFile(refPath)
			start = time.Now()
			got := profileText(t, Profile(c, in.code, in.sym, in.opts))
			t.Logf("%s seed %d: %d ranges, %d branches: llvm-profgen-19 %v, Profile+WriteText %v",
				name, seed, len(c.Ranges), len(c.Branches), refTime, time.Since(start))
			if !bytes.Equal(got, want) {
				gotPath := filepath.Join(os.TempDir(), "profgen-"+name+".txt")
				os.WriteFile(gotPath, got, 0o644)
				os.WriteFile(gotPath+".ref", want, 0o644)
				os.WriteFile(gotPath+".raw", raw.Bytes(), 0o644)
				t.Errorf("%s seed %d: profile differs from llvm-profgen-19: diff %s %s.ref", name, seed, gotPath, gotPath)
				break
			}
		}
	}
}

// BenchmarkProfile generates from synthetic counters over the whole code of
// $PROFGEN_GENERATE_BENCH (default: testdata/cxx-pie.bin).
func BenchmarkProfile(b *testing.B) {
	path := os.Getenv("PROFGEN_GENERATE_BENCH")
	if path == "" {
		path = "testdata/cxx-pie.bin"
	}
	in := openTestInput(b, path)
	c := synthCounters(in.code, 1)
	b.ResetTimer()
	for b.Loop() {
		Profile(c, in.code, in.sym, in.opts)
	}
}
