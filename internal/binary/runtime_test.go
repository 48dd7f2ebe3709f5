package binary

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestRuntimeBaseMatchesProfgen maps runtime addresses of a PIE built with
// the default (separate-code) layout, loaded at an ASLR address, the way
// llvm-profgen-19 does given the MMAP2 event of its text segment.
func TestRuntimeBaseMatchesProfgen(t *testing.T) {
	profgen := testutil.Tool(t, "llvm-profgen-19")
	clang := testutil.Tool(t, "clang-19")
	dir := t.TempDir()
	bin := filepath.Join(dir, "pie.bin")
	cmd := exec.Command(clang, "-O2", "-fPIE", "-pie", "-Wl,-z,separate-code", "-o", bin, filepath.Join("testdata", "prog.c"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("clang-19: %v\n%s", err, out)
	}
	f, err := Open(bin, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.TextSegmentOffset() == 0 {
		t.Fatalf("text segment at offset 0: the layout this test needs did not happen")
	}
	const loadAddr = 0x55d0c0de0000 // where the first segment (offset 0) went
	mmapAddr, pgoff := loadAddr+f.TextSegmentOffset(), f.TextSegmentOffset()
	base, ok := f.RuntimeBase(mmapAddr, pgoff)
	if !ok {
		t.Fatalf("RuntimeBase(%#x, %#x) not ok", mmapAddr, pgoff)
	}
	if _, ok := f.RuntimeBase(loadAddr, 0); ok {
		t.Errorf("RuntimeBase accepted the read-only first mapping")
	}
	// Runtime addresses of a range [a, b] inside main, and branches into
	// and out of it.
	main := symbolNamed(t, f, "main")
	var insts []Inst
	for in := range f.Insts(main.Addr, main.Addr+main.Size-1) {
		insts = append(insts, in)
	}
	a, b := insts[0].Addr, insts[1].Addr // no branch at the first instruction of main
	runtime := func(canon uint64) uint64 { return canon - f.PreferredBase() + base }
	script := fmt.Sprintf("PERF_RECORD_MMAP2 4242/4242: [0x%x(0x1000) @ 0x%x fe:00 123 456]: r-xp %s\n"+
		" 0x%x/0x7f0000000000/P/-/-/0 0x7f0000000010/0x%x/P/-/-/0\n", mmapAddr, pgoff, bin, runtime(b), runtime(a))
	for _, canon := range []uint64{a, b} {
		if got := f.CanonicalAddr(runtime(canon), base); got != canon {
			t.Errorf("CanonicalAddr(%#x) = %#x, want %#x", runtime(canon), got, canon)
		}
	}
	got := profgenRanges(t, profgen, bin, script, f.PreferredBase())
	if !got[[2]uint64{a, b}] || len(got) != 1 {
		var keys []string
		for r := range got {
			keys = append(keys, fmt.Sprintf("%#x-%#x", r[0], r[1]))
		}
		t.Errorf("llvm-profgen ranges %s, want %#x-%#x (preferred base %#x, text offset %#x)",
			strings.Join(keys, " "), a, b, f.PreferredBase(), f.TextSegmentOffset())
	}
}
