package binary

import (
	"bytes"
	"slices"
	"testing"
)

// TestCodeSections checks that the sections CodeSections yields hold every
// instruction Insts yields, with its bytes, and that it decodes nothing.
func TestCodeSections(t *testing.T) {
	for _, name := range []string{"tricky.elf", "clang-pie.elf", "gcc-cet.elf", "arm64-tricky.elf"} {
		t.Run(name, func(t *testing.T) {
			f := openTestdata(t, name, Options{})
			type section struct {
				addr uint64
				text []byte
			}
			var secs []section
			for addr, text := range f.CodeSections() {
				secs = append(secs, section{addr, bytes.Clone(text)})
			}
			if n := decodedRanges(f); n != 0 {
				t.Errorf("CodeSections decoded %d ranges", n)
			}
			n := 0
			for in := range f.Insts(0, ^uint64(0)) {
				n++
				want := make([]byte, in.Size)
				if err := f.ReadCode(in.Addr, want); err != nil {
					t.Fatal(err)
				}
				i := 0
				for i < len(secs) && !(in.Addr >= secs[i].addr && in.End() <= secs[i].addr+uint64(len(secs[i].text))) {
					i++
				}
				if i == len(secs) {
					t.Fatalf("%#x: in no section", in.Addr)
				}
				if got := secs[i].text[in.Addr-secs[i].addr : in.End()-secs[i].addr]; !bytes.Equal(got, want) {
					t.Errorf("%#x: bytes %x, want %x", in.Addr, got, want)
				}
			}
			if n == 0 {
				t.Fatal("no instructions")
			}
		})
	}
}

func TestCodeSectionsStops(t *testing.T) {
	f := openTestdata(t, "tricky.elf", Options{})
	n := 0
	for range f.CodeSections() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("early break: %d", n)
	}
}

// TestDecodeIsInsts checks that Decode yields what Insts yields over each
// function, each instruction with its bytes, and that it caches nothing.
func TestDecodeIsInsts(t *testing.T) {
	for _, name := range []string{"tricky.elf", "clang-pie.elf", "gcc-cet.elf", "arm64-tricky.elf"} {
		t.Run(name, func(t *testing.T) {
			f := openTestdata(t, name, Options{})
			spans := [][2]uint64{{0, ^uint64(0)}}
			for _, s := range f.FuncSymbols() {
				spans = append(spans, [2]uint64{s.Addr, s.Addr + s.Size}, [2]uint64{s.Addr + 1, s.Addr + s.Size/2})
			}
			var got [][]Inst
			for _, sp := range spans {
				var insts []Inst
				for in, b := range f.Decode(sp[0], sp[1]) {
					insts = append(insts, in)
					want := make([]byte, in.Size)
					if err := f.ReadCode(in.Addr, want); err == nil && !bytes.Equal(b, want) {
						t.Errorf("%#x: bytes %x, want %x", in.Addr, b, want)
					}
				}
				got = append(got, insts)
			}
			if n := decodedRanges(f); n != 0 {
				t.Errorf("Decode decoded %d ranges for Inst", n)
			}
			for k, sp := range spans {
				var want []Inst
				if sp[1] > sp[0] {
					want = slices.Collect(f.Insts(sp[0], sp[1]-1))
				}
				if !slices.Equal(got[k], want) {
					t.Fatalf("[%#x, %#x): Decode %d instructions, Insts %d", sp[0], sp[1], len(got[k]), len(want))
				}
			}
			if len(got[0]) == 0 {
				t.Fatal("no instructions")
			}
		})
	}
}
