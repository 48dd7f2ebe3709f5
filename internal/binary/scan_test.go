package binary

import (
	"bytes"
	"testing"
)

// TestScanIsInsts checks that Scan yields what Insts yields over the whole
// binary, each instruction with its bytes, and that it caches nothing.
func TestScanIsInsts(t *testing.T) {
	for _, name := range []string{"tricky.elf", "clang-pie.elf", "gcc-cet.elf", "arm64-tricky.elf"} {
		t.Run(name, func(t *testing.T) {
			f := openTestdata(t, name, Options{})
			var got []Inst
			for in, b := range f.Scan() {
				got = append(got, in)
				want := make([]byte, in.Size)
				if err := f.ReadCode(in.Addr, want); err == nil && !bytes.Equal(b, want) {
					t.Errorf("%#x: bytes %x, want %x", in.Addr, b, want)
				}
			}
			if n := decodedRanges(f); n != 0 {
				t.Errorf("Scan decoded %d ranges for Inst", n)
			}
			var want []Inst
			for in := range f.Insts(0, ^uint64(0)) {
				want = append(want, in)
			}
			if len(got) != len(want) || len(want) == 0 {
				t.Fatalf("Scan: %d instructions, Insts: %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("instruction %d: Scan %+v, Insts %+v", i, got[i], want[i])
				}
			}
		})
	}
}

func TestScanStops(t *testing.T) {
	f := openTestdata(t, "tricky.elf", Options{})
	n := 0
	for range f.Scan() {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("early break: %d", n)
	}
}
