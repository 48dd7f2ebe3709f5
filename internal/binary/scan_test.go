package binary

import (
	"bytes"
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
