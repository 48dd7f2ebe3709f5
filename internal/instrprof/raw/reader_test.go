package raw_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/instrprof/text"
)

// mergeText reads raws into one profile and renders it as text; a file
// named "a|b" is the concatenation of a and b.
func mergeText(t *testing.T, files ...string) (string, error) {
	t.Helper()
	p := instrprof.NewProfile()
	var r raw.Reader
	for _, f := range files {
		var buf []byte
		for _, part := range strings.Split(f, "|") {
			b, err := os.ReadFile(filepath.Join("..", "testdata", part))
			if err != nil {
				t.Fatal(err)
			}
			buf = append(buf, b...)
		}
		info, err := r.Read(f, buf, func(rec *instrprof.Record, ref uint64, off int64) error {
			return p.Add(rec, ref, 1, instrprof.Origin{File: f, Offset: off})
		})
		if err != nil {
			return "", err
		}
		p.Kind |= info.Kind
		if info.Trace != nil {
			p.AddTraces([]instrprof.Trace{{Weight: 1, Refs: info.Trace}}, 1, instrprof.DefaultTraceLimits)
		}
	}
	var out bytes.Buffer
	if err := text.Write(&out, p); err != nil {
		t.Fatal(err)
	}
	return out.String(), nil
}

func TestReadMatchesLLVM(t *testing.T) {
	tests := []struct {
		ref   string
		files []string
	}{
		{"ir19-1.ref.txt", []string{"ir19-1.profraw"}},
		{"ir19-2.ref.txt", []string{"ir19-2.profraw"}},
		{"ir19-both.ref.txt", []string{"ir19-1.profraw", "ir19-2.profraw"}},
		{"ir19-both.ref.txt", []string{"ir19-2.profraw", "ir19-1.profraw"}},
		{"fe19.ref.txt", []string{"fe19.profraw"}},
		{"plain19.ref.txt", []string{"plain19.profraw"}},
		{"ir14.ref.txt", []string{"ir14.profraw"}},
		{"cat.ref.txt", []string{"ir19-1.profraw|fe19.profraw"}},
		{"vt.ref.txt", []string{"vt1.profraw", "vt2.profraw"}},
		{"cs.ref.txt", []string{"cs.profraw"}},
		{"sb.ref.txt", []string{"sb1.profraw", "sb2.profraw"}},
		{"tsb.ref.txt", []string{"tsb.profraw"}}, // temporal, single-byte counters
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.files, "+"), func(t *testing.T) {
			got, err := mergeText(t, tt.files...)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("..", "testdata", tt.ref))
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("text differs from llvm-profdata's %s:\n%s", tt.ref, got)
			}
		})
	}
}

// TestTruncated cuts a real raw at every offset: each cut either fails with
// a FormatError naming the file, or (when only zero padding was cut) reads
// the same records.
func TestTruncated(t *testing.T) {
	for _, name := range []string{"ir19-1.profraw", "fe19.profraw", "ir14.profraw", "tsb.profraw"} {
		full, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		want := count(t, full)
		for n := 0; n < len(full); n++ {
			var r raw.Reader
			got := 0
			_, err := r.Read(name, full[:n], func(*instrprof.Record, uint64, int64) error { got++; return nil })
			var fe *instrprof.FormatError
			switch {
			case err == nil && got != want:
				t.Errorf("%s cut at %d: no error but %d records, want %d", name, n, got, want)
			case err != nil && !errors.As(err, &fe):
				t.Errorf("%s cut at %d: error without offset: %v", name, n, err)
			case err != nil && fe.File != name:
				t.Errorf("%s cut at %d: error names %q", name, n, fe.File)
			}
		}
	}
}

func count(t *testing.T, buf []byte) int {
	var r raw.Reader
	n := 0
	if _, err := r.Read("x", buf, func(*instrprof.Record, uint64, int64) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestBadInputs(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "testdata", "ir19-1.profraw"))
	if err != nil {
		t.Fatal(err)
	}
	future := append([]byte(nil), good...)
	future[8] = 11
	huge := append([]byte(nil), good...)
	huge[0x18] = 0xff // NumData
	tests := []struct {
		name string
		buf  []byte
		want string
	}{
		{"magic", []byte("not a profile at all"), "bad magic"},
		{"future", future, "version 11 is not supported"},
		{"huge", huge, "truncated"},
	}
	for _, tt := range tests {
		var r raw.Reader
		_, err := r.Read(tt.name, tt.buf, func(*instrprof.Record, uint64, int64) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), tt.name+": offset ") {
			t.Errorf("%s: got %v, want an error with offset and %q", tt.name, err, tt.want)
		}
	}
}

func TestCorrelatedWithoutBinary(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "testdata", "ir19-1.profraw"))
	if err != nil {
		t.Fatal(err)
	}
	h := append([]byte(nil), good[:0x80]...)
	clear(h[0x10:0x20]) // no binary ids, NumData = 0
	clear(h[0x48:0x68]) // NamesSize, deltas = 0
	h[0x28] = 1         // NumCounters = 1
	h = append(h, make([]byte, 8)...)
	var r raw.Reader
	_, err = r.Read("c", h, func(*instrprof.Record, uint64, int64) error { return nil })
	if !errors.Is(err, raw.ErrNeedBinary) || !strings.Contains(err.Error(), "--binary-file") {
		t.Errorf("got %v, want ErrNeedBinary naming --binary-file", err)
	}
}
