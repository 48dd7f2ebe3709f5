package sampleprof

import (
	"bytes"
	"strings"
	"testing"
)

// TestReadVTables checks the vtable type lines LLVM 22's text reader
// takes and refuses (what llvm-profdata-22 does with each is in
// cmd/profgen's parity table).
func TestReadVTables(t *testing.T) {
	tests := []struct {
		name, body string
		want       string // text written back; "" for an error
	}{
		{"pairs sorted, trailing space", " 9: 1\n 9: vtables B:2 A:1\n", " 9: 1\n 9: vtables A:1 B:2 \n"},
		{"lines add up", " 9: 1\n 9: vtables A:1\n 9: vtables A:2\n", " 9: 1\n 9: vtables A:3 \n"},
		{"spaces in a name, extra spaces", " 9: 1\n 9: vtables  a b:3  c:04 \n", " 9: 1\n 9: vtables a b:3 c:4 \n"},
		{"empty: nothing written", " 9: 1\n 9: vtables \n", " 9: 1\n"},
		{"no record there: not written", " 9: 1\n 8: vtables A:1\n", " 9: 1\n"},
		{"record and inlinee: written twice", " 9: 1\n 9: f:2\n  1: 2\n 9: vtables A:1\n", " 9: 1\n 9: vtables A:1 \n 9: f:2\n  1: 2\n 9: vtables A:1 \n"},
		{"twice on one line", " 9: 1\n 9: vtables A:1 A:2\n", ""},
		{"a name with a colon", " 9: 1\n 9: vtables a::b:3\n", ""},
		{"no count", " 9: 1\n 9: vtables A\n", ""},
		{"not a number", " 9: 1\n 9: vtables A:1x\n", ""},
		{"after metadata", " 9: 1\n !Attributes: 1\n 9: vtables A:1\n", ""},
		{"no pairs, no space", " 9: vtables\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ReadText(strings.NewReader("main:10:0\n" + tt.body))
			if tt.want == "" {
				if err == nil {
					t.Fatal("read without an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := WriteText(&out, p); err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimPrefix(out.String(), "main:10:0\n"); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestVTablesExtBinary writes the vtables through extbinary: kept with
// WriteOptions.VTables, read back the same; dropped without.
func TestVTablesExtBinary(t *testing.T) {
	p := readTestFile(t, "testdata/llvm22/vtables.txt")
	for _, opts := range []WriteOptions{{VTables: true}, {}} {
		var eb bytes.Buffer
		if err := WriteExtBinary(&eb, p, opts); err != nil {
			t.Fatal(err)
		}
		q, err := ReadBinary(eb.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		want := textOf(t, p)
		if !opts.VTables {
			want = withoutVTableLines(want)
		}
		if got := textOf(t, q); got != want {
			t.Errorf("VTables=%v: read back\n%s\nwant\n%s", opts.VTables, got, want)
		}
	}
}

// TestFlatMetadata reads "!Flat" on top-level functions and writes it
// for the split layout's flat functions.
func TestFlatMetadata(t *testing.T) {
	p := readTestFile(t, "testdata/llvm22/flat.txt")
	var out bytes.Buffer
	if err := (WriteOptions{SplitLayout: true}).Write(&out, p, FormatText); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n !Flat\n"); n != 2 {
		t.Errorf("%d !Flat lines, want 2 (foo and bar, not main):\n%s", n, out.String())
	}
	if strings.Contains(textOf(t, p), "!Flat") {
		t.Error("!Flat written without the split layout")
	}
	if _, err := ReadText(strings.NewReader("main:1:0\n 1: f:1\n  1: 1\n  !Flat\n")); err == nil {
		t.Error("!Flat read on an inlinee")
	}
}

func textOf(t *testing.T, p *Profile) string {
	t.Helper()
	var out bytes.Buffer
	if err := WriteText(&out, p); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

func withoutVTableLines(s string) string {
	var keep []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.Contains(l, ": "+vtablesPrefix) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}
