package binary

import (
	"slices"
	"sync"
	"testing"

	"github.com/profgen/profgen/internal/binary/insn"
)

// Addresses in testdata/tricky.elf (see tricky.S and the llvm-profgen-19
// --show-disassembly-only listing it was checked against).
const (
	trickyStart     = 0x400110 // _start: endbr64
	trickyBranches  = 0x4001e0 // f_branches
	trickyMid       = 0x4001f8 // mid: lret
	trickyBadBytes  = 0x400200 // 06 07 27 0f ff: not code
	trickyTable     = 0x400208 // table (an object, decoded as code anyway)
	trickyAfter     = 0x400218 // after_table
	trickyDup       = 0x40021b // dup1, dup2: a truncated call
	trickyMytextPad = 0x40021c // .mytext before its first symbol
	trickyLate      = 0x40021e // late, in .mytext
)

func TestInst(t *testing.T) {
	f := openTestdata(t, "tricky.elf", Options{})
	tests := []struct {
		addr uint64
		want Inst
		ok   bool
	}{
		{trickyStart, Inst{trickyStart, 4, insn.Other}, true},                        // endbr64, not a 1-byte rep
		{trickyStart + 4, Inst{trickyStart + 4, 5, insn.Call}, true},                 // call f_prefixes
		{trickyStart + 1, Inst{}, false},                                             // inside endbr64
		{trickyBranches + 2, Inst{trickyBranches + 2, 2, insn.CondBranch}, true},     // je
		{trickyBranches + 4, Inst{trickyBranches + 4, 2, insn.CondBranch}, true},     // jrcxz
		{trickyBranches + 6, Inst{trickyBranches + 6, 2, insn.CondBranch}, true},     // loop
		{trickyBranches + 8, Inst{trickyBranches + 8, 2, insn.Jump}, true},           // jmp rel8
		{trickyBranches + 10, Inst{trickyBranches + 10, 2, insn.IndirectJump}, true}, // jmp *(%rax)
		{trickyBranches + 14, Inst{trickyBranches + 14, 5, insn.Call}, true},
		{trickyBranches + 19, Inst{trickyBranches + 19, 5, insn.Jump}, true}, // tail call
		{trickyMid, Inst{trickyMid, 1, insn.Return}, true},                   // lret
		{trickyMid + 1, Inst{trickyMid + 1, 2, insn.Return}, true},           // iretq
		{trickyMid + 3, Inst{trickyMid + 3, 3, insn.Return}, true},           // ret $8
		{trickyBadBytes, Inst{}, false},
		{trickyBadBytes + 3, Inst{}, false}, // 0f ff: ud0, which LLVM 19 rejects
		{trickyBadBytes + 5, Inst{trickyBadBytes + 5, 1, insn.Other}, true},
		{trickyTable, Inst{trickyTable, 3, insn.Other}, true},
		{trickyAfter, Inst{trickyAfter, 2, insn.Other}, true},
		{trickyDup, Inst{}, false},
		{trickyMytextPad, Inst{}, false},
		{trickyLate, Inst{trickyLate, 1, insn.Other}, true},
		{0, Inst{}, false},
		{^uint64(0), Inst{}, false},
	}
	for _, tt := range tests {
		got, ok := f.Inst(tt.addr)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Inst(%#x) = %+v, %v; want %+v, %v", tt.addr, got, ok, tt.want, tt.ok)
		}
		if f.IsCode(tt.addr) != tt.ok {
			t.Errorf("IsCode(%#x) = %v, want %v", tt.addr, !tt.ok, tt.ok)
		}
	}
}

func TestNextInst(t *testing.T) {
	f := openTestdata(t, "tricky.elf", Options{})
	tests := []struct {
		addr, want uint64
		ok         bool
	}{
		{0, trickyStart, true},
		{trickyStart, trickyStart + 4, true},
		{trickyStart + 1, trickyStart + 4, true},
		{trickyMid + 6, trickyBadBytes + 5, true}, // skips the invalid bytes
		{trickyAfter + 2, trickyLate, true},       // next range with code, across sections
		{trickyLate + 2, 0, false},
		{^uint64(0), 0, false},
	}
	for _, tt := range tests {
		got, ok := f.NextInst(tt.addr)
		if got != tt.want || ok != tt.ok {
			t.Errorf("NextInst(%#x) = %#x, %v; want %#x, %v", tt.addr, got, ok, tt.want, tt.ok)
		}
	}
}

func TestInsts(t *testing.T) {
	f := openTestdata(t, "tricky.elf", Options{})
	var got []uint64
	for in := range f.Insts(trickyMid+1, trickyBadBytes+6) {
		got = append(got, in.Addr)
	}
	want := []uint64{trickyMid + 1, trickyMid + 3, trickyMid + 6, trickyBadBytes + 5, trickyBadBytes + 6}
	if !slices.Equal(got, want) {
		t.Errorf("Insts = %#x, want %#x", got, want)
	}
	n := 0
	for range f.Insts(trickyStart, trickyLate) {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("early break: %d", n)
	}
}

func TestCrossesUncondBranch(t *testing.T) {
	f := openTestdata(t, "tricky.elf", Options{})
	tests := []struct {
		name       string
		start, end uint64
		want       bool
	}{
		{"empty", trickyBranches, trickyBranches, false},
		{"reversed", trickyBranches + 8, trickyBranches, false},
		{"cond branches only", trickyBranches, trickyBranches + 8, false},
		{"ends at the jmp: end is exclusive", trickyBranches + 2, trickyBranches + 8, false},
		{"includes the jmp", trickyBranches + 2, trickyBranches + 9, true},
		{"indirect jumps do not count", trickyBranches + 10, trickyBranches + 14, false},
		{"call", trickyBranches + 14, trickyBranches + 15, true},
		{"lret", trickyMid, trickyMid + 1, true},
		{"over invalid bytes", trickyBadBytes, trickyBadBytes + 6, false},
		{"ret after invalid bytes", trickyBadBytes, trickyBadBytes + 7, true},
		{"across ranges", trickyBadBytes + 7, trickyAfter + 2, true}, // the table's c3 bytes
		{"no code", 0, trickyStart, false},
	}
	for _, tt := range tests {
		if got := f.CrossesUncondBranch(tt.start, tt.end); got != tt.want {
			t.Errorf("%s: CrossesUncondBranch(%#x, %#x) = %v, want %v", tt.name, tt.start, tt.end, got, tt.want)
		}
	}
}

func TestDecodeIsLazy(t *testing.T) {
	f := openTestdata(t, "clang-pie.elf", Options{})
	main := symbolNamed(t, f, "main")
	f.IsCode(main.Addr)
	if n := decodedRanges(f); n != 1 {
		t.Errorf("%d ranges decoded after one lookup, want 1 of %d", n, len(f.code.starts))
	}
}

func decodedRanges(f *File) int {
	n := 0
	for i := range f.code.decoded {
		if f.code.decoded[i].Load() != nil {
			n++
		}
	}
	return n
}

func symbolNamed(t testing.TB, f *File, name string) Symbol {
	t.Helper()
	for _, s := range f.FuncSymbols() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no symbol %s", name)
	return Symbol{}
}

// TestConcurrentUse is meant for go test -race.
func TestConcurrentUse(t *testing.T) {
	f := openTestdata(t, "gcc-cet.elf", Options{})
	var want []Inst
	for in := range f.Insts(0, ^uint64(0)) {
		want = append(want, in)
	}
	g := openTestdata(t, "gcc-cet.elf", Options{})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, in := range want {
				if got, ok := g.Inst(in.Addr); !ok || got != in {
					t.Errorf("Inst(%#x) = %+v, %v; want %+v", in.Addr, got, ok, in)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestFuncSymbolAt(t *testing.T) {
	f := openTestdata(t, "clang-pie.elf", Options{})
	pick := symbolNamed(t, f, "pick")
	tests := []struct {
		addr uint64
		want string
		ok   bool
	}{
		{pick.Addr, "pick", true},
		{pick.Addr + pick.Size - 1, "pick", true},
		{0, "", false},
	}
	for _, tt := range tests {
		got, ok := f.FuncSymbolAt(tt.addr)
		if got.Name != tt.want || ok != tt.ok {
			t.Errorf("FuncSymbolAt(%#x) = %v, %v; want %s, %v", tt.addr, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBucketIndex(t *testing.T) {
	tests := []struct {
		name   string
		starts []uint64
	}{
		{"dense", []uint64{0x1000, 0x1010, 0x1020, 0x1100, 0x2000, 0x2001}},
		{"one", []uint64{0x400000}},
		{"sparse: no index", []uint64{0, 1 << 62}},
		{"duplicates of addresses across sections", []uint64{0x10, 0x10, 0x20}},
	}
	for _, tt := range tests {
		x := newBucketIndex(tt.starts)
		probes := []uint64{0, ^uint64(0)}
		for _, s := range tt.starts {
			probes = append(probes, s-1, s, s+1, s+0x7ff)
		}
		for _, a := range probes {
			want, _ := slices.BinarySearchFunc(tt.starts, a, func(s, a uint64) int {
				if s <= a {
					return -1
				}
				return 1
			})
			got, ok := x.firstAfter(tt.starts, a)
			if ok && got != want {
				t.Errorf("%s: firstAfter(%#x) = %d, want %d", tt.name, a, got, want)
			}
		}
	}
}
