package symbolize

import (
	"debug/elf"
	"os"
	"strings"
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
		{7, 0, 1},   // the low bits of a pseudo probe, but nothing else: prefix-encoded
		{15, 1, 1},  // gcc: read as a pseudo probe's, probe id 1 (llvm-profgen-19 on sqlite-gcc)
		{23, 2, 1},
		{0x10000000 | 5<<16 | 9<<3 | 7, 5, 1}, // a pseudo probe with the DWARF base discriminator 5 packed
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

// benchBinary opens the binary $PROFGEN_SYMBOLIZE_BENCH (default: the
// test binary of generate).
func benchBinary(b *testing.B) *elf.File {
	exe := os.Getenv("PROFGEN_SYMBOLIZE_BENCH")
	if exe == "" {
		exe = "../generate/testdata/cxx-pie.bin"
	}
	f, err := elf.Open(exe)
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}

// BenchmarkTable symbolizes the binary of benchBinary: building the
// tables, then every address of its text.
func BenchmarkTable(b *testing.B) {
	f := benchBinary(b)
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

// BenchmarkLazy symbolizes the binary of benchBinary as the driver does:
// units loaded on demand and read without debug/dwarf where they can be
// (dies.go, lineprog.go, ranges.go), by 2000 addresses spread over its
// text, which load every unit. Needs uncompressed DWARF.
func BenchmarkLazy(b *testing.B) {
	f := benchBinary(b)
	d, err := f.DWARF()
	info := debugInfo(f)
	if err != nil || info == nil {
		b.Skip("no uncompressed DWARF")
	}
	sections := map[string][]byte{}
	for _, s := range f.Sections {
		if strings.HasPrefix(s.Name, ".debug_") {
			sections[s.Name], _ = s.Data()
		}
	}
	section := func(name string) ([]byte, error) { return sections[name], nil }
	text := f.Section(".text")
	step := max(text.Size/2000, 1)
	var buf []Frame
	for b.Loop() {
		t, err := New(d, Options{Info: info, Section: section})
		if err != nil || t.lazy == nil {
			b.Fatal("not lazy", err)
		}
		for a := text.Addr; a < text.Addr+text.Size; a += step {
			buf = t.Frames(a, buf)
		}
	}
}

func newFromELF(f *elf.File) (*Table, error) {
	d, err := f.DWARF()
	if err != nil {
		return nil, err
	}
	return New(d, Options{Section: elfSection(f)})
}

// elfSection reads f's sections as binary.File.DWARFSection does: a
// missing one is nil.
func elfSection(f *elf.File) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if s := f.Section(name); s != nil {
			return s.Data()
		}
		return nil, nil
	}
}
