package sampleprof

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadTextSemantics(t *testing.T) {
	in := `# comment
f:10:1
 1: 3 g:2 g:4
 1: 2

f:5:2
 2: 9 h::x:1 a b:7
 3: inl:4
  1: 4
 3: inl:1
  1: 1
`
	p, err := ReadText(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	f := p.Functions["f"]
	if f.TotalSamples != 15 || f.HeadSamples != 3 {
		t.Errorf("repeated header: total %d head %d, want 15 3", f.TotalSamples, f.HeadSamples)
	}
	r := f.Body[LineLocation{1, 0}]
	if r.Samples != 5 || r.CallTargets["g"] != 4 {
		t.Errorf("line 1: %d samples, g %d; want 5 and 4 (later duplicate target wins)", r.Samples, r.CallTargets["g"])
	}
	r = f.Body[LineLocation{2, 0}]
	if r.CallTargets["h::x"] != 1 || r.CallTargets["a b"] != 7 {
		t.Errorf("targets with colons and spaces: %v", r.CallTargets)
	}
	if c := f.Callsites[LineLocation{3, 0}]["inl"]; c.TotalSamples != 5 || c.Body[LineLocation{1, 0}].Samples != 5 {
		t.Errorf("repeated inlinee not added up: %+v", c)
	}
}

func TestReadTextErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"f:1\n", "<input>:1: expected 'mangled_name:NUM:NUM'"},
		{"f:1:x\n", "<input>:1: expected 'mangled_name:NUM:NUM'"},
		{"f:1:1\n 1: 2\n 1 2\n", "<input>:3: expected 'NUM[.NUM]: NUM"},
		{"f:1:1\n 1.x: 2\n", "<input>:2: expected"},
		{"f:1:1\n 1: 2 \n", "<input>:2: expected"},
		{"f:1:1\n 1: 2 g\n", "<input>:2: expected"},
		{"f:1:1\n 4294967296: 2\n", "<input>:2: expected"},
		{"\n 1: 2\n", "<input>:2: sample line before any function header"},
		{"f:1:1\n !Attributes: x\n", "<input>:2: expected '!CFGChecksum: NUM'"},
		{"f:1:1\n !Foo: 2\n", "<input>:2: expected '!CFGChecksum: NUM'"},
		{"f:1:1\n !CFGChecksum: 2\n 1: 1\n", "<input>:3: found non-metadata after metadata"},
		{"[main:1 @ f]:1:1\nmain:2:2\n", "<input>:2: context-sensitive and context-less profiles mixed"},
		{"[main:x @ f]:1:1\n", "<input>:1: context frame \"main:x\": bad call site location"},
	}
	for _, tt := range tests {
		_, err := ReadText(strings.NewReader(tt.in))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("ReadText(%q) = %v, want %q...", tt.in, err, tt.want)
		}
	}
}

func TestReadFileNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.prof")
	if err := os.WriteFile(path, []byte("f:1:1\n 1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path)
	var fe *FormatError
	if !errors.As(err, &fe) || fe.File != path || fe.Line != 2 {
		t.Errorf("ReadFile error = %v, want %s line 2", err, path)
	}
}

func TestReadBinaryErrors(t *testing.T) {
	good, err := os.ReadFile("testdata/golden/inline.extbinary")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile("testdata/golden/inline.binary")
	if err != nil {
		t.Fatal(err)
	}
	badVersion := bytes.Clone(bin)
	badVersion[9] = 102
	badSection := bytes.Clone(good)
	badSection[18+32+16] = 0xff // name table offset past the end
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"truncated binary", bin[:len(bin)-3], "offset "},
		{"truncated extbinary", good[:100], "offset 10: section header table"},
		{"version", badVersion, "offset 9: unsupported version 102"},
		{"section bounds", badSection, "exceeds the file"},
		{"magic", []byte("\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00"), "offset 0: not a binary sample profile"},
	}
	for _, tt := range tests {
		_, err := ReadBinary(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		file string
		want Format
	}{
		{"testdata/inline.txt", FormatText},
		{"testdata/golden/inline.binary", FormatBinary},
		{"testdata/golden/inline.extbinary", FormatExtBinary},
	}
	for _, tt := range tests {
		data, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := Detect(data[:16]); got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.file, got, tt.want)
		}
	}
	for _, head := range []string{"\xfflprofi\x81\x0a\x00\x00", "\x81rforpl\xff\x0a\x00", "\x1f\x8b\x08\x00"} {
		if got := Detect([]byte(head)); got != FormatUnknown {
			t.Errorf("Detect(%q) = %v, want unknown", head, got)
		}
	}
	if got := Detect([]byte("_ZN3\xc3\xa9t\xc3\xa9:10:1\n 1: 1\xc3")); got != FormatText {
		t.Errorf("Detect(UTF-8 text cut inside a rune) = %v, want text", got)
	}
}

func TestMD5Name(t *testing.T) {
	// Values from llvm-profdata-19 show of an MD5 profile.
	if got := MD5Name("bar"); got != 16434608426314478903 {
		t.Errorf("MD5Name(bar) = %d", got)
	}
}

func TestSummarySkipsDuplicatedInlinees(t *testing.T) {
	p, err := ReadText(strings.NewReader("f:10:1\n 1: 5\n 2: g:7\n  1: 7\n  !Attributes: 4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := ComputeSummary(p); s.TotalCount != 5 || s.NumCounts != 1 {
		t.Errorf("summary counted an inlinee duplicated into its base: %+v", s)
	}
}

// TestDecoderULEB: the numbers of LLVM's binary sample profiles are read
// as LLVM's decodeULEB128 reads them (zero bits past the 64th are
// padding), and errors carry the offset of the number.
func TestDecoderULEB(t *testing.T) {
	tests := []struct {
		in      []byte
		want    uint64
		wantErr string
	}{
		{[]byte{0xe5, 0x8e, 0x26}, 624485, ""},
		{append(bytes.Repeat([]byte{0xff}, 9), 1), 1<<64 - 1, ""},
		{append(bytes.Repeat([]byte{0x80}, 11), 0), 0, ""},
		{[]byte{0x80, 0x80}, 0, "<input>: offset 16: truncated number"},
		{append(bytes.Repeat([]byte{0xff}, 9), 2), 0, "<input>: offset 16: number overflows 64 bits"},
		{append(bytes.Repeat([]byte{0xff}, 9), 0x83), 0, "<input>: offset 16: number overflows 64 bits"},
	}
	for _, tt := range tests {
		d := decoder{data: tt.in, base: 0x10}
		got := d.uleb()
		errText := ""
		if d.err != nil {
			errText = d.err.Error()
		}
		if got != tt.want || errText != tt.wantErr {
			t.Errorf("% x: %#x, %q; want %#x, %q", tt.in, got, errText, tt.want, tt.wantErr)
		}
	}
}
