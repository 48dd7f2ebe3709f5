package profformat

import (
	"os"
	"testing"
)

func TestSniff(t *testing.T) {
	tests := []struct {
		head string
		want Format
	}{
		{"\x81rforpl\xff\x0a\x00\x00\x00", RawLE64},
		{"\x81Rforpl\xff\x0a\x00\x00\x00", RawLE32},
		{"\xfflprofr\x81\x00\x00\x00\x0a", RawBE64},
		{"\xfflprofR\x81\x00\x00\x00\x0a", RawBE32},
		{"\xfflprofi\x81\x0c\x00\x00", Indexed},
		{"\x1f\x8b\x08\x00", GzipPprof},
		{"# c\n\nmain:10:1\n 1: 1\n", SampleText},
		{"_ZN1a1bEv:1", SampleText}, // cut short
		{" 1: 1\n", Unknown},
		{"package main\n\nimport \"os\"\n", Unknown},
		{"foo\n1234\n1\n5\n", InstrText},
		{"foo\n# Func Hash:\n12\n", InstrText},
		{"foo\n0x1a\n1\n5\n", InstrText},
		{":ir\nfoo\n", InstrText},
		{"", Unknown},
		{"\x00\x01", Unknown},
		{"# profgen address profile v1\nbinary - 0 \"p\"\n", AddressStacks},
		{"# profgen address profile v2\n", AddressStacks}, // read as one, refused by version
		{"2\n10-20:3\n20-30:1\n1\n20->10:3\n", UnsymbolizedLBR},
		{"0\n0\n", UnsymbolizedLBR},
		{"0\n1\nffffffffffff5001->10:1\n", UnsymbolizedLBR},
		{"[main:1 @ foo]\n  1\n  10-20:3\n  0\n", UnsymbolizedCS},
		{"[]\n  0\n  0\n", UnsymbolizedCS},
		{"[main:1 @ foo]:10:1\n 1: 10\n", SampleText},
		{"12\nfoo\n", Unknown},
		{"adcg*704\x00\x00\x00\x00", SampleGCC},
		{"adcg\x01\x00\x00\x00", SampleGCC},
		{"adcg\x02\x00\x00\x00", SampleGCC},
		{"adcg\x03\x00\x00\x00", SampleGCC},
		{"adcg\x04\x00\x00\x00", Unknown},
		{"gcda\x02\x00\x00\x00", Unknown}, // byte-swapped: GCC refuses it too
	}
	for _, tt := range tests {
		if got := Sniff([]byte(tt.head)); got != tt.want {
			t.Errorf("Sniff(%q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func TestSniffFile(t *testing.T) {
	tests := []struct {
		file string
		want Format
	}{
		{"../sampleprof/testdata/inline.txt", SampleText},
		{"../sampleprof/testdata/golden/inline.binary", SampleBinary},
		{"../sampleprof/testdata/golden/inline.extbinary", SampleExtBinary},
		{"../sampleprof/testdata/gcc.afdo", SampleGCC},
		{"../sampleprof/testdata/golden/gcc-v2.afdo", SampleGCC},
		{"../sampleprof/testdata/golden/gcc-v3.afdo", SampleGCC},
		{"../instrprof/testdata/plain19.profraw", RawLE64},
		{"../../cmd/profgen/testdata/instr.profdata", Indexed},
	}
	for _, tt := range tests {
		if _, err := os.Stat(tt.file); err != nil {
			t.Fatal(err)
		}
		if got, err := SniffFile(tt.file); err != nil || got != tt.want {
			t.Errorf("SniffFile(%s) = %v, %v; want %v", tt.file, got, err, tt.want)
		}
	}
}

func FuzzSniff(f *testing.F) {
	for _, seed := range []string{"\x81rforpl\xff", "\xfflprofi\x81", "main:1:1\n 1: 1\n", ":ir\nfoo\n1\n", "foo\n12\n", "\x1f\x8b"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		if k := Sniff(head).Kind(); k != Sniff(head).Kind() {
			t.Fatalf("Sniff is not deterministic on %q", head)
		}
	})
}
