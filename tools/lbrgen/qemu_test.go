package main

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary/arm64"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/testutil"
)

func TestParseTracePC(t *testing.T) {
	tests := []struct {
		in   string
		pc   uint64
		okay bool
	}{
		{" 0x7fd3d0391ac0 [0000000001009331/0000005502928f40/00000001/00000201] \n", 0x5502928f40, true},
		{" 0x7f00 [0/400580/0/0] main\n", 0x400580, true},
		{" 0x7f00 [0000000001009331/0000005502928f40", 0, false},      // truncated
		{" 0x7f00 [0000000001009331//00000001/00000201]\n", 0, false}, // no PC
		{" 0x7f00 [0/00000000000000400580/0/0]\n", 0, false},          // more than 64 bits
		{" 0x7f00 0/400580/0/0]\n", 0, false},
	}
	for _, tt := range tests {
		pc, ok := parseTracePC([]byte(tt.in))
		if pc != tt.pc || ok != tt.okay {
			t.Errorf("parseTracePC(%q) = %#x, %v; want %#x, %v", tt.in, pc, ok, tt.pc, tt.okay)
		}
	}
}

func TestReadQemuLog(t *testing.T) {
	log := "host mmap_min_addr=0x1000\n" +
		"Trace 0: 0x7f01 [0000000001009331/0000005500001000/00000001/00000201] \n" +
		"Trace 1: 0x7f02 [0000000001009331/0000005500009000/00000001/00000201] other thread\n" +
		"Trace 0: 0x7f03 [0000000001009331/0000005500001004/00000001/00000201] main\n" +
		"Trace 10: 0x7f04 [0000000001009331/0000005500002000/00000001/00000201] \n" +
		"Trace 0: 0x7f05 [0000000001009331/0000005500001008/00000001/00000201]"
	var got []uint64
	err := readQemuLog(strings.NewReader(log), 0, func(a uint64, size uint32) error {
		if size != 4 {
			t.Errorf("size %d", size)
		}
		got = append(got, a)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%x", got) != "[5500001000 5500001004 5500001008]" {
		t.Errorf("PCs %x", got)
	}
	err = readQemuLog(strings.NewReader("Trace 0: 0x7f01 [00/zz/00/00]\n"), 0, func(uint64, uint32) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "qemu log line 1: malformed") {
		t.Errorf("error %v, want the malformed line", err)
	}
}

func FuzzReadQemuLog(f *testing.F) {
	seed, err := os.ReadFile("testdata/tiny-arm64.qemu")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("Trace 0: 0x1 [0/5500001000/0/0]\nTrace 0: 0x1 [0/55"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		err := readQemuLog(bytes.NewReader(data), 0, func(a uint64, s uint32) error {
			if s != 4 {
				t.Fatalf("size %d", s)
			}
			n++
			return nil
		})
		if lines := bytes.Count(data, []byte("Trace 0:")); err == nil && n > lines {
			t.Fatalf("%d instructions from %d trace lines", n, lines)
		}
	})
}

// TestReadGuestMaps: of qemu's host mappings, those of files under the
// sysroot that hold an executable segment, as r-xp; nothing of qemu
// itself, of the host's libraries or of the traced binary.
func TestReadGuestMaps(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "lib", "libc.so.6")
	if err := os.MkdirAll(filepath.Dir(lib), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("../../internal/binary/testdata/arm64-pie.elf")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lib, data, 0o644); err != nil {
		t.Fatal(err)
	}
	maps := "5500000000-5500002000 r--p 00000000 fe:00 9978273 /tmp/lbrgen-1/wordfreq\n" +
		"5502822000-5502849000 r--p 00000000 fe:00 827407 " + lib + "\n" +
		"5502860000-5502864000 rw-p 00010000 fe:00 827407 " + lib + "\n" +
		"557cdc162000-557cdc41a000 r-xp 00099000 fe:00 10166514 /usr/bin/qemu-aarch64\n" +
		"7fc213e44000-7fc213f9a000 r-xp 00026000 fe:00 326269 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
	lay := layout{vgBias: qemuPIEBias, mainLo: qemuPIEBias, mainHi: qemuPIEBias + 0x20000}
	ms, err := readGuestMaps(strings.NewReader(maps), root, lay)
	if err != nil {
		t.Fatal(err)
	}
	want := []mapping{{Addr: 0x5502822000, Len: 0x27000, Pgoff: 0, Maj: 0xfe, Ino: 827407, Prot: "r-xp", Path: lib}}
	if fmt.Sprint(ms) != fmt.Sprint(want) {
		t.Errorf("got %+v\nwant %+v", ms, want)
	}
}

// TestARM64BranchKind: lbrgen's kinds of AArch64 branches agree with
// profgen's decoder (itself checked against llvm-objdump-19) on random
// words of the branch group.
func TestARM64BranchKind(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 1))
	var b [4]byte
	for i := 0; i < 200000; i++ {
		w := r.Uint32()&^(7<<26) | 0b101<<26
		binary.LittleEndian.PutUint32(b[:], w)
		got, want := arm64BranchKind(b[:]), arm64.KindOf(w)
		if !sameKind(got, want) {
			t.Fatalf("%08x: lbrgen %v, decoder %v", w, got, want)
		}
	}
}

// sameKind says whether lbrgen's kind of a word that profgen's decoder
// classes as want is the same: lbrgen also names syscalls and does not
// check the fixed fields of an encoding (LLVM rejects a BR with bits set
// where the architecture wants zeros; the CPU never runs one).
func sameKind(got BranchKind, want insn.Kind) bool {
	switch want {
	case insn.Call:
		return got == KindCall || got == KindIndCall
	case insn.Return:
		return got == KindRet
	case insn.Jump:
		return got == KindUncond
	case insn.IndirectJump:
		return got == KindInd
	case insn.CondBranch:
		return got == KindCond
	}
	return got == KindUnknown || got == KindSyscall || got == KindInd || got == KindIndCall || got == KindRet
}

// tinyARM64 is a PIE whose code segment (vaddr 0x1000) holds:
//
//	1000: 94000004  bl   1010
//	1004: 14000001  b    1008        (a tail call to the next instruction)
//	1008: d61f0200  br   x16         (a PLT stub into libc)
//	1010: 11000400  add  w0, w0, #1
//	1014: 35ffffe0  cbnz w0, 1010
//	1018: d65f03c0  ret
func tinyARM64() *binaryInfo {
	code := make([]byte, 0x100)
	for i, w := range []uint32{0x94000004, 0x14000001, 0xd61f0200, 0, 0x11000400, 0x35ffffe0, 0xd65f03c0} {
		binary.LittleEndian.PutUint32(code[4*i:], w)
	}
	return &binaryInfo{
		Machine: elf.EM_AARCH64, PIE: true, Entry: 0x1000, Lo: 0, Hi: 0x3000, inodeStamp: 4111,
		Exec:  []segment{{Vaddr: 0x1000, Memsz: 0x100, Off: 0x1000, Filesz: 0x100, data: code}},
		Funcs: []funcSym{{0x1000, 0x10, "main"}, {0x1010, 0x0c, "spin"}},
	}
}

func TestGoldenARM64(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"arm64-single", []string{"-single", "OUT/single.script", "-period", "3", "-depth", "4", "-flags", "typed"}},
		{"arm64-stack", []string{"-stack", "OUT/stack", "-procs", "2", "-period", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"-binary", "tiny", "-qemu-log", "testdata/tiny-arm64.qemu"}
			for _, a := range tt.args {
				args = append(args, strings.Replace(a, "OUT", out, 1))
			}
			runOn(t, tinyARM64(), args)
			checkGolden(t, filepath.Join("testdata", tt.name+".golden"), dumpDir(t, out))
		})
	}
}

// TestQemu traces wordfreq, built for AArch64, under qemu-aarch64: two
// runs give the same bytes, the combined scripts agree with the
// per-process references, perf script prints the perf.data files as the
// text, and llvm-profgen-19 accepts the single-process script.
func TestQemu(t *testing.T) {
	needTools(t, "qemu-aarch64", "clang-19", "aarch64-linux-gnu-ld")
	if _, err := os.Stat("/usr/aarch64-linux-gnu/lib/libc.so.6"); err != nil {
		t.Skip("no AArch64 sysroot (libc6-dev-arm64-cross)")
	}
	bin := filepath.Join(t.TempDir(), "wordfreq")
	cmd := exec.Command("clang-19", "--target=aarch64-linux-gnu", "-O2", "-g", "-o", bin, "../../testdata/programs/wordfreq.c")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang-19: %v\n%s", err, out)
	}
	dirs := traceTwice(t, func(dir string) []string {
		return []string{"-binary", bin, "-period", "500", "-flags", "typed", "-perfdata",
			"-single", dir + "/single.script", "-multi", dir + "/multi", "-fork", dir + "/fork",
			"-fork-after", "100", "-stack", dir + "/stack", "--", "1000"}
	})
	for _, prefix := range []string{"multi", "fork", "stack"} {
		checkReferences(t, dirs[0], prefix)
	}
	if testutil.HasTool("perf") {
		checkStackPerfData(t, dirs[0]+"/stack")
		os.Remove(dirs[0] + "/stack.perf.data")
		checkPerfData(t, dirs[0])
	}
	if testutil.HasTool("llvm-profgen-19") {
		checkProfgen(t, bin, dirs[0]+"/single.script", true)
	}
}

// checkStackPerfData: perf script -F pid,time,period,event,ip,sym,dso
// prints PREFIX.perf.data as PREFIX.script, but for the symbol of each
// frame (perf reads the shared objects' symbols; lbrgen names the
// binary's own functions only).
func checkStackPerfData(t *testing.T, prefix string) {
	t.Helper()
	got := perfScript(t, prefix+".perf.data", "-F", "pid,time,period,event,ip,sym,dso", "--show-mmap-events", "--show-task-events")
	want := readFile(t, prefix+".script")
	sym := regexp.MustCompile(`(?m)^(\t *[0-9a-f]+) .* (\([^()]*\))$`)
	got, want = sym.ReplaceAllString(got, "$1 $2"), sym.ReplaceAllString(want, "$1 $2")
	if got != want {
		g, w := lines(got), lines(want)
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("line %d:\nperf   %q\nlbrgen %q", i+1, g[i], w[i])
			}
		}
		t.Fatalf("perf printed %d lines, lbrgen wrote %d", len(g), len(w))
	}
}
