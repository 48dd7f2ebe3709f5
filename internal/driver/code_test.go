package driver

import (
	"github.com/profgen/profgen/internal/binary"

	"bufio"
	"bytes"
	"debug/elf"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// objdumpBinary is a test Binary whose code comes from llvm-objdump-19:
// an independent view of the instructions (internal/binary has its own
// cross-checks against llvm-profgen).
type objdumpBinary struct {
	path          string
	insts         map[uint64]bool
	uncond        []uint64 // sorted: calls, returns, direct jumps
	preferredBase uint64
	textOffset    uint64
}

func (b *objdumpBinary) Path() string              { return b.path }
func (b *objdumpBinary) PreferredBase() uint64     { return b.preferredBase }
func (b *objdumpBinary) TextSegmentOffset() uint64 { return b.textOffset }
func (b *objdumpBinary) IsCode(a uint64) bool      { return b.insts[a] }

func (b *objdumpBinary) CrossesUncondBranch(s, e uint64) bool {
	if s >= e {
		return false
	}
	i := sort.Search(len(b.uncond), func(i int) bool { return b.uncond[i] >= s })
	return i < len(b.uncond) && b.uncond[i] < e
}

// openTestBinary opens a binary for the cross-checks.
func openTestBinary(t testing.TB, path string) Binary {
	f, err := binary.Open(path, binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func openObjdumpBinary(t testing.TB, path string) *objdumpBinary {
	t.Helper()
	objdump, err := exec.LookPath("llvm-objdump-19")
	if err != nil {
		t.Skip("llvm-objdump-19 not installed")
	}
	out, err := exec.Command(objdump, "-d", "--no-show-raw-insn", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	b := &objdumpBinary{path: path, insts: map[uint64]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	inText := false
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "Disassembly of section ") {
			// llvm-profgen decodes the functions of the symbol table, not
			// the PLT stubs objdump shows in their own sections.
			inText = strings.HasPrefix(l, "Disassembly of section .text")
		}
		addr, mnem, ok := parseObjdumpLine(sc.Text())
		if !ok || !inText {
			continue
		}
		b.insts[addr] = true
		if isUncond(mnem) {
			b.uncond = append(b.uncond, addr)
		}
	}
	sort.Slice(b.uncond, func(i, j int) bool { return b.uncond[i] < b.uncond[j] })
	b.preferredBase, b.textOffset = firstExecSegment(t, path)
	return b
}

func parseObjdumpLine(l string) (uint64, string, bool) {
	colon := strings.Index(l, ":")
	if colon < 0 || !strings.HasPrefix(l, " ") {
		return 0, "", false
	}
	addr, err := strconv.ParseUint(strings.TrimSpace(l[:colon]), 16, 64)
	if err != nil {
		return 0, "", false
	}
	f := strings.Fields(l[colon+1:])
	if len(f) == 0 {
		return 0, "", false
	}
	if len(f) > 1 && (f[0] == "rep" || f[0] == "notrack" || f[0] == "bnd") {
		f = f[1:]
	}
	return addr, strings.Join(f, " "), true
}

func isUncond(m string) bool {
	return strings.HasPrefix(m, "call") || strings.HasPrefix(m, "ret") ||
		(strings.HasPrefix(m, "jmp") && !strings.Contains(m, "*"))
}

func firstExecSegment(t testing.TB, path string) (vaddr, off uint64) {
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			return p.Vaddr &^ 0xfff, p.Off &^ 0xfff
		}
	}
	t.Fatal("no executable segment")
	return 0, 0
}
