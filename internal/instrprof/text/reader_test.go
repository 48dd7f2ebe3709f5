package text_test

import (
	"bytes"
	"os"
	"path/filepath"
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
