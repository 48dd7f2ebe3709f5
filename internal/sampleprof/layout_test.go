package sampleprof

import (
	"bytes"
	"strings"
	"testing"
)

// TestFlatten: testdata/inline.txt flattened as llvm-profdata-19 merge
// --convert-sample-profile-layout=flat writes it.
func TestFlatten(t *testing.T) {
	p, err := ReadFile("testdata/inline.txt")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := WriteText(&got, Flatten(p)); err != nil {
		t.Fatal(err)
	}
	want := `main:800:10
 1: 10
 2.1: 20 bar:15 foo:5
 3: 140 inl:100 zzz:40
foo:500:100
 1: 100
 5: 400
inl:300:100
 1: 100
 2: 200 baz:50
 4: 60 deeper:60
deeper:60:60
 1: 60
zzz:40:40
 1: 40
`
	if got.String() != want {
		t.Errorf("flattened:\n%s\nwant:\n%s", got.String(), want)
	}
}

// TestSplitLayout: the split layout has no CS name table and two pairs of
// function offset table and profile section, the second flagged flat; the
// profile reads back the same.
func TestSplitLayout(t *testing.T) {
	p, err := ReadFile("testdata/inline.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out, info bytes.Buffer
	if err := (WriteOptions{SplitLayout: true}).Write(&out, p, FormatExtBinary); err != nil {
		t.Fatal(err)
	}
	if err := WriteSectionInfo(&info, out.Bytes()); err != nil {
		t.Fatal(err)
	}
	var sections []string
	for _, l := range strings.Split(info.String(), "\n") {
		if name, _, ok := strings.Cut(l, " - "); ok {
			_, flags, _ := strings.Cut(l, "Flags: ")
			sections = append(sections, name+flags)
		}
	}
	want := "ProfileSummarySection{} NameTableSection{} FuncOffsetTableSection{} LBRProfileSection{} " +
		"FuncOffsetTableSection{flat} LBRProfileSection{flat} ProfileSymbolListSection{} FunctionMetadata{}"
	if got := strings.Join(sections, " "); got != want {
		t.Errorf("sections\n%s\nwant\n%s", got, want)
	}
	back, err := ReadBinary(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	WriteText(&a, p)
	WriteText(&b, back)
	if a.String() != b.String() {
		t.Errorf("read back as\n%s\nwant\n%s", b.String(), a.String())
	}
}
