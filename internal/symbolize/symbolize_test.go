package symbolize

import (
	"debug/elf"
	"os"
	"testing"
)

func TestDiscriminator(t *testing.T) {
	tests := []struct {
		d, base, dup uint32
	}{
		{0, 0, 1},
		{1, 0, 1},
		{2, 1, 1},
		{514, 1, 2}, // llvm-profgen basic-events-flat.test
		{3, 0, 1},   // gcc: odd values carry no base discriminator
	}
	for _, tt := range tests {
		if b, d := BaseDiscriminator(tt.d), DuplicationFactor(tt.d); b != tt.base || d != tt.dup {
			t.Errorf("discriminator %d: base %d dup %d, want %d %d", tt.d, b, d, tt.base, tt.dup)
		}
	}
}

func TestCanonicalName(t *testing.T) {
	tests := map[string]string{
		"foo":                 "foo",
		"foo.part.0":          "foo",
		"foo.llvm.123":        "foo",
		"foo.cold":            "foo.cold",
		"foo.constprop.0":     "foo.constprop.0",
		"foo.__uniq.1.part.2": "foo.__uniq.1",
		"foo.__uniq.1":        "foo.__uniq.1",
	}
	for in, want := range tests {
		if got := CanonicalName(in); got != want {
			t.Errorf("CanonicalName(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkTable symbolizes the binary $PROFGEN_SYMBOLIZE_BENCH (default:
// the test binary of generate): building the tables, then every address of
// its text.
func BenchmarkTable(b *testing.B) {
	exe := os.Getenv("PROFGEN_SYMBOLIZE_BENCH")
	if exe == "" {
		exe = "../generate/testdata/cxx-pie.bin"
	}
	f, err := elf.Open(exe)
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	text := f.Section(".text")
	b.Run("New", func(b *testing.B) {
		for b.Loop() {
			if _, err := newFromELF(f); err != nil {
				b.Fatal(err)
			}
		}
	})
	tab, err := newFromELF(f)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d subroutines, %d segments, %d line rows", len(tab.subs), len(tab.segs), len(tab.lines))
	b.Run("Frames", func(b *testing.B) {
		var buf []Frame
		a := text.Addr
		for b.Loop() {
			buf = tab.Frames(a, buf)
			if a++; a >= text.Addr+text.Size {
				a = text.Addr
			}
		}
	})
}

func newFromELF(f *elf.File) (*Table, error) {
	d, err := f.DWARF()
	if err != nil {
		return nil, err
	}
	return New(d, Options{})
}
