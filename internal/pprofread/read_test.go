package pprofread

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/testutil"
)

// emptyStrings is a gzipped pprof of n empty string-table entries (field
// 6, length 0), made without holding them.
func emptyStrings(n int) []byte {
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	chunk := bytes.Repeat([]byte{0x32, 0}, 1<<19)
	for left := n; left > 0; left -= 1 << 19 {
		w.Write(chunk[:2*min(left, 1<<19)])
	}
	w.Close()
	return z.Bytes()
}

func writeTemp(t *testing.T, name string, b []byte) string {
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// testPprof is a small profile of three samples.
func testPprof() *profile.Profile {
	fn := &profile.Function{ID: 1, Name: "main"}
	loc := &profile.Location{ID: 1, Address: 0x1001, Line: []profile.Line{{Function: fn, Line: 1}}}
	smp := func(v int64) *profile.Sample {
		return &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{v}}
	}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Sample:     []*profile.Sample{smp(3), smp(1), smp(1)},
		Location:   []*profile.Location{loc},
		Function:   []*profile.Function{fn},
	}
}

func TestReadPprof(t *testing.T) {
	var good bytes.Buffer
	if err := testPprof().Write(&good); err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	if err := testPprof().WriteUncompressed(&plain); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want string // "" for success
	}{
		{"gzipped", good.Bytes(), ""},
		{"plain", plain.Bytes(), ""},
		{"truncated", plain.Bytes()[:plain.Len()-3], "pprof: offset "},
		{"bad wire type", []byte{0x0f, 1}, "pprof: offset 0 of the decoded profile: field 1: unknown wire type 7"},
		{"truncated gzip", good.Bytes()[:good.Len()/2], "pprof: gzip"},
		{"not pprof", []byte("hello"), "p.pprof: pprof: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Read(writeTemp(t, "p.pprof", tt.data))
			switch {
			case tt.want == "" && (err != nil || len(p.Sample) != 3):
				t.Errorf("err %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want one with %q", err, tt.want)
			}
		})
	}
}

// TestPprofBombs: 2^29 empty strings gzipped into ~1 MB (1 GiB inflated;
// the pprof package took 23.5 GB), and 24M of them in a plain 48 MiB file,
// fail under a 2 GiB address-space limit within 20 s.
func TestPprofBombs(t *testing.T) {
	if !testutil.Limited(t, 2<<30, 20*time.Second) {
		return
	}
	for _, tt := range []struct {
		n    int
		gzip bool
		want string
	}{{1 << 29, true, "compression bomb"}, {24 << 20, false, "MiB allowed"}} {
		var b []byte
		if tt.gzip {
			b = emptyStrings(tt.n)
		} else {
			b = bytes.Repeat([]byte{0x32, 0}, tt.n)
		}
		_, err := Read(writeTemp(t, "bomb.pprof", b))
		if err == nil || !strings.Contains(err.Error(), tt.want) || len(err.Error()) > 300 {
			t.Errorf("%d empty strings: error %v, want one line with %q", tt.n, err, tt.want)
		}
		t.Logf("%d empty strings (%d-byte file): %v", tt.n, len(b), err)
	}
}

func FuzzDecode(f *testing.F) {
	var b bytes.Buffer
	testPprof().WriteUncompressed(&b)
	f.Add(b.Bytes())
	f.Add([]byte{0x32, 0, 0x32, 0, 0x0f})
	f.Add(goodParts().bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Decode(data); err != nil && len(err.Error()) > 300 {
			t.Errorf("error of %d characters", len(err.Error()))
		}
		// profgen's checks refuse only what pprof refuses
		if err := checkPprofRefs(data); err != nil && scanPprof(data) == nil {
			if _, perr := profile.ParseData(data); perr == nil {
				t.Errorf("refused %v, but pprof reads it", err)
			}
		}
	})
}

// TestPbVarint: varints read as pprof's decoder reads them, a tenth byte
// over 1 included (binary.Uvarint refuses it).
func TestPbVarint(t *testing.T) {
	tests := []struct {
		b []byte
		v uint64
		n int
	}{
		{[]byte{0x05}, 5, 1},
		{[]byte{0x96, 0x01}, 150, 2},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 1<<64 - 1, 10},
		{[]byte{0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x7f}, 0x8912244891224489, 10},
		{[]byte{0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x89, 0x01}, 0, 0}, // eleven bytes
		{[]byte{0x80}, 0, 0},
		{nil, 0, 0},
	}
	for _, tt := range tests {
		if v, n := pbVarint(tt.b); v != tt.v || n != tt.n {
			t.Errorf("pbVarint(% x) = %#x, %d; want %#x, %d", tt.b, v, n, tt.v, tt.n)
		}
	}
}
