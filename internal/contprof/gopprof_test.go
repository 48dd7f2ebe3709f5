package contprof

import (
	"debug/elf"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/binary"
)

// TestGoRuntimePprof reads the CPU profile Go's own runtime/pprof writes
// of testdata/gocpu: the executable's mapping carries its build id, and
// the flat samples by function, found from the file offsets through the
// ELF symbols alone, equal those of Go's profile by its names.
func TestGoRuntimePprof(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a Go program")
	}
	exe, prof := runGoCPU(t)
	p, err := ReadFile(prof, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	main := mainMapping(t, p, exe)
	if id, _ := binary.BuildIDOf(f); p.Mappings[main].BuildIDs.GNU != hex.EncodeToString(id) {
		t.Errorf("build id %q, want %x", p.Mappings[main].BuildIDs.GNU, id)
	}
	syms := elfSymbols(t, f)
	got := flatByELFSymbol(t, f, syms, p, main)
	want := flatByGoName(t, prof)
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("flat samples by function\n got %v\nwant %v", got, want)
	}
	checkCallers(t, exe, f, syms, p, main)
}

func elfSymbols(t *testing.T, f *elf.File) []elf.Symbol {
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].Value < syms[j].Value })
	return syms
}

// checkCallers checks that every caller frame in the executable is the
// last byte of a CALL instruction (the return address − 1), as the
// package comment says Go writes them, by go tool objdump; but for the
// frame a signal interrupted to inject a call to runtime.asyncPreempt,
// which is at its instruction.
func checkCallers(t *testing.T, exe string, f *elf.File, syms []elf.Symbol, p *Profile, main int32) {
	out, err := exec.Command("go", "tool", "objdump", exe).Output()
	if err != nil {
		t.Skipf("go tool objdump: %v", err)
	}
	calls := callEnds(string(out))
	n := 0
	for _, s := range p.Samples {
		for i, fr := range s.Frames[1:] {
			callee := s.Frames[i]
			if fr.Mapping != main || callee.Mapping == main && symbolAt(syms, vaddrOf(t, f, callee.Addr)) == "runtime.asyncPreempt" {
				continue
			}
			if v := vaddrOf(t, f, fr.Addr); !calls[v+1] {
				t.Fatalf("caller frame at %#x: no CALL ends at %#x", v, v+1)
			}
			n++
		}
	}
	if n == 0 {
		t.Error("no caller frame in the executable")
	}
}

// callEnds returns the addresses just past each CALL instruction of a go
// tool objdump listing ("  file:line\t\t0xADDR\t\tHEX\t\tCALL …").
func callEnds(listing string) map[uint64]bool {
	ends := map[uint64]bool{}
	for _, line := range strings.Split(listing, "\n") {
		cols := strings.FieldsFunc(line, func(r rune) bool { return r == '\t' })
		if len(cols) < 4 || !strings.HasPrefix(cols[3], "CALL ") {
			continue
		}
		addr, err := strconv.ParseUint(strings.TrimPrefix(cols[1], "0x"), 16, 64)
		if err == nil {
			ends[addr+uint64(len(cols[2])/2)] = true
		}
	}
	return ends
}

// runGoCPU builds and runs testdata/gocpu and returns the executable and
// the profile it wrote.
func runGoCPU(t *testing.T) (exe, prof string) {
	dir := t.TempDir()
	exe, prof = filepath.Join(dir, "gocpu"), filepath.Join(dir, "cpu.pprof")
	build := exec.Command("go", "build", "-o", exe, "./testdata/gocpu/main.go")
	if out, err := build.CombinedOutput(); err != nil {
		t.Skipf("go build: %v\n%s", err, out)
	}
	if out, err := exec.Command(exe, prof).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, out)
	}
	return exe, prof
}

func mainMapping(t *testing.T, p *Profile, exe string) int32 {
	for i, m := range p.Mappings {
		if m.Path == exe {
			return int32(i)
		}
	}
	t.Fatalf("no mapping of %s among %+v", exe, p.Mappings)
	return -1
}

// flatByELFSymbol sums the weight of the samples whose leaf is in the
// executable by the ELF symbol holding its file offset.
func flatByELFSymbol(t *testing.T, f *elf.File, syms []elf.Symbol, p *Profile, main int32) map[string]uint64 {
	flat := map[string]uint64{}
	for _, s := range p.Samples {
		if leaf := s.Frames[0]; leaf.Mapping == main {
			flat[symbolAt(syms, vaddrOf(t, f, leaf.Addr))] += s.Weight
		}
	}
	return flat
}

func vaddrOf(t *testing.T, f *elf.File, off uint64) uint64 {
	for _, pr := range f.Progs {
		if pr.Type == elf.PT_LOAD && pr.Flags&elf.PF_X != 0 && off >= pr.Off && off < pr.Off+pr.Filesz {
			return off - pr.Off + pr.Vaddr
		}
	}
	t.Fatalf("file offset %#x in no executable segment", off)
	return 0
}

func symbolAt(syms []elf.Symbol, addr uint64) string {
	i := sort.Search(len(syms), func(i int) bool { return syms[i].Value > addr }) - 1
	if i < 0 || addr >= syms[i].Value+syms[i].Size {
		return "?"
	}
	return strings.TrimSuffix(syms[i].Name, ".abi0") // Go's names have no ABI
}

// flatByGoName sums Go's profile's samples by the function of their leaf
// location (its outermost line: the function whose code it is).
func flatByGoName(t *testing.T, path string) map[string]uint64 {
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	gp, err := profile.Parse(r)
	if err != nil {
		t.Fatal(err)
	}
	flat := map[string]uint64{}
	for _, s := range gp.Sample {
		leaf := s.Location[0]
		if leaf.Mapping == nil || leaf.Mapping.ID != 1 {
			continue
		}
		flat[leaf.Line[len(leaf.Line)-1].Function.Name] += uint64(s.Value[0])
	}
	return flat
}
