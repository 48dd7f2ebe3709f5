package text_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/text"
)

// readProfile reads a text profile into a Profile.
func readProfile(t *testing.T, name string, data []byte) (*instrprof.Profile, error) {
	t.Helper()
	p := instrprof.NewProfile()
	info, err := text.Read(name, bytes.NewReader(data), func(rec *instrprof.Record, line int64) error {
		return p.Add(rec, 0, 1, instrprof.Origin{File: name, Offset: line})
	})
	p.Kind = info.Kind
	p.AddTraces(info.Traces, info.TraceStream, instrprof.DefaultTraceLimits)
	return p, err
}

// TestReadWriteRoundTrip reads llvm-profdata-19's text of every committed
// raw (IR, FE with MC/DC bitmaps, CS, vtables, single-byte coverage; -22's
// of a temporal single-byte one, with its trace) and
// llvm-profdata-22's of a loop-entries raw (testdata/loop-entries.txt, of
// cmd/profgen/testdata/parity/loop22e.profraw) and writes it back: the
// same bytes.
func TestReadWriteRoundTrip(t *testing.T) {
	refs, _ := filepath.Glob("../testdata/*.ref.txt")
	refs = append(refs, "testdata/sample.txt", "testdata/loop-entries.txt")
	for _, ref := range refs {
		want, err := os.ReadFile(ref)
		if err != nil {
			t.Fatal(err)
		}
		p, err := readProfile(t, ref, want)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		var got bytes.Buffer
		if err := text.Write(&got, p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: read then written differs:\n%s", ref, got.String())
		}
	}
}

// TestReadHeaderKinds: header words in any case, each setting or (for
// not_entry_first) clearing its variant bit in the order read, as
// llvm-profdata-22 shows them.
func TestReadHeaderKinds(t *testing.T) {
	const ir, entry = instrprof.KindIR, instrprof.KindEntryFirst
	tests := []struct {
		header string
		want   instrprof.Kind
	}{
		{":IR\n", ir},
		{":Ir\r\n", ir},
		{":CSIR\n", ir | instrprof.KindCS},
		{":FE\n", 0},
		{":ir\n:Entry_First\n", ir | entry},
		{":entry_first\n:not_entry_first\n:ir\n", ir},
		{":NOT_ENTRY_FIRST\n:entry_first\n", entry},
		{":ir\n:Single_Byte_Coverage\n", ir | instrprof.KindByteCoverage},
	}
	for _, tt := range tests {
		p, err := readProfile(t, "p", []byte(tt.header+"main\n1\n1\n1\n"))
		if err != nil || p.Kind != tt.want {
			t.Errorf("%q: kind %#x, %v; want %#x", tt.header, p.Kind, err, tt.want)
		}
	}
}

// TestReadKindListedTwice: a value kind listed twice keeps both lists of
// sites, the first first (llvm-profdata-22 merge --text writes 8:3 then
// 16:4 as two memop sites).
func TestReadKindListedTwice(t *testing.T) {
	in := "main\n1\n1\n5\n2\n1\n1\n1\n8:3\n1\n1\n1\n16:4\n"
	var got [][]instrprof.Value
	_, err := text.Read("p", strings.NewReader(in), func(rec *instrprof.Record, _ int64) error {
		got = rec.Sites[instrprof.ValueMemOPSize]
		return nil
	})
	want := [][]instrprof.Value{{{Value: 8, Count: 3}}, {{Value: 16, Count: 4}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("memop sites %v, %v; want %v", got, err, want)
	}
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{":ir\nmain\nx\n", "p:3: function hash is not a valid integer"},
		{":ir\nmain\n1\n2\n5\n", "p:5: truncated: counter expected"},
		{":temporal_prof_traces\n", "p:1: truncated: number of temporal profile traces"},
		{":nosuch\n", "p:1: header \":nosuch\" is not supported"},
		{"main\n1\n1\n1\n$x\n", "p:5: number of bitmap bytes"},
		{"main\n1\n1\n1\n1\n0\n1\n1\nnocolon\n", "p:9: value \"nocolon\" is not VALUE:COUNT"},
		{"main\n1\n1\n1\n1\n0\n1\n1\n:10\n", "p:9: value \":10\": symbol name is empty"},
		{"main\n1\n0\n", "p:3: function \"main\" has no counters"},
		{": ir\n", "p:1: header \": ir\" is not supported"},
		{":ir \n", "p:1: header \":ir \" is not supported"},
		{"main\n1\n1\n1\n0\n", "p:5: number of value kinds 0 is invalid"},
		{"main\n1\n1\n1\n4\n", "p:5: number of value kinds 4 is invalid"},
	}
	for _, tt := range tests {
		_, err := readProfile(t, "p", []byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	refs, _ := filepath.Glob("../testdata/*.ref.txt")
	for _, ref := range refs {
		b, _ := os.ReadFile(ref)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text.Read("fuzz", bytes.NewReader(data), func(*instrprof.Record, int64) error { return nil })
	})
}
