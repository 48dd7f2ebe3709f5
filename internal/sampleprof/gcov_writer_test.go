package sampleprof

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// gccSource is the LLVM text profile the writer tests convert: clone and
// split parts of foo (GCC knows them as foo), a call target with an LTO
// suffix, discriminators on a line and on a call site, a function without
// head count (the writer estimates one: gcc-12 ignores the function else).
const gccSource = `main:1000:10
 1: 100
 2.1: 40 foo:30 _ZN1A3getEv.llvm.123:10
 2.3: 60
 3: bar:270
  1: 200
  4.2: baz:70
   0: 70
 5.1: bar:5
  1: 5
foo:30:30
 1: 30
foo.cold:5:2
 3: 5
foo.part.0:7:7
 1: 7
nohead:70:0
 2: 50
 3: 20
`

func readGCCSource(t *testing.T) *Profile {
	t.Helper()
	p, err := ReadText(strings.NewReader(gccSource))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestWriteGCC: the bytes of each version and option (golden files,
// -update rewrites them), and what reading them back gives.
func TestWriteGCC(t *testing.T) {
	tests := []struct {
		golden string
		opts   GCCOptions
		want   string
	}{
		{"gcc-v2.afdo", GCCOptions{}, `main:475:10
 1: 100
 2.1: 40 foo:30 _ZN1A3getEv:10
 2.3: 60
 3: bar:270
  1: 200
  4.2: baz:70
   0: 70
 5.1: bar:5
  1: 5
nohead:70:50
 2: 50
 3: 20
foo:42:39
 1: 37
 3: 5
`},
		{"gcc-v3.afdo", GCCOptions{Version: GCCVersion3}, ""},
		{"gcc-v2-folded.afdo", GCCOptions{FoldDiscriminators: true}, `main:435:10
 1: 100
 2: 60 foo:30 _ZN1A3getEv:10
 3: bar:270
  1: 200
  4: baz:70
   0: 70
 5: bar:5
  1: 5
nohead:70:50
 2: 50
 3: 20
foo:42:39
 1: 37
 3: 5
`},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteGCC(&b, readGCCSource(t), tt.opts); err != nil {
			t.Fatal(err)
		}
		testutil.Golden(t, filepath.Join("testdata", "golden", tt.golden), b.Bytes())
		if tt.want == "" {
			continue
		}
		if got := gccAsText(t, b.Bytes()); got != tt.want {
			t.Errorf("%s reads back as\n%s\nwant\n%s", tt.golden, got, tt.want)
		}
	}
}

func gccAsText(t *testing.T, data []byte) string {
	t.Helper()
	p, err := ReadGCC(data)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := WriteText(&text, p); err != nil {
		t.Fatal(err)
	}
	return text.String()
}

// TestGCCRoundTrip: GCC → LLVM text → GCC gives the same bytes, for each
// version the writer writes; version 3's source files survive GCC → GCC.
func TestGCCRoundTrip(t *testing.T) {
	for _, v := range []uint32{GCCVersion2, GCCVersion3} {
		p := readGCCSource(t)
		p.SourceFiles = map[string]string{"main": "/src/main.c", "foo.cold": "/src/foo.c", "baz": "/src/baz.h"}
		var first bytes.Buffer
		if err := WriteGCC(&first, p, GCCOptions{Version: v}); err != nil {
			t.Fatal(err)
		}
		q, err := ReadGCC(first.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{"main": "/src/main.c", "foo": "/src/foo.c", "baz": "/src/baz.h"}; v == GCCVersion3 && !equalMaps(q.SourceFiles, want) {
			t.Errorf("version 3 source files %v, want %v", q.SourceFiles, want)
		}
		if again := gccBytes(t, q, v); !bytes.Equal(again, first.Bytes()) {
			t.Errorf("version %d: GCC → GCC changed the bytes", v)
		}
		q.SourceFiles = nil
		viaText, err := ReadText(strings.NewReader(gccAsText(t, first.Bytes())))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gccBytes(t, viaText, v), gccBytes(t, q, v)) {
			t.Errorf("version %d: GCC → text → GCC changed the bytes", v)
		}
	}
}

func gccBytes(t *testing.T, p *Profile, version uint32) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteGCC(&b, p, GCCOptions{Version: version}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestGCCVersion3Summary: version 3 starts with the profile summary LLVM
// would compute for the same counts.
func TestGCCVersion3Summary(t *testing.T) {
	data := gccBytes(t, readGCCSource(t), GCCVersion3)
	word := func(i int) uint32 { return binary.LittleEndian.Uint32(data[4*i:]) }
	counter := func(i int) uint64 { return uint64(word(i)) | uint64(word(i+1))<<32 }
	if word(1) != 3 || word(3) != gcovTagSummary {
		t.Fatalf("header %#x %#x, want version 3 and the summary tag", word(1), word(3))
	}
	got := []uint64{counter(4), counter(6), counter(8), counter(10), counter(12), counter(14)}
	want := []uint64{587, 200, 50, 10, 3, 16} // total, max, max head, counts, functions, cutoffs
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("summary field %d = %d, want %d", i, got[i], want[i])
		}
	}
}

func TestWriteGCCRefuses(t *testing.T) {
	far := NewProfile()
	far.Function("f").Record(LineLocation{LineOffset: 70000}).Samples = 1
	disc := NewProfile()
	disc.Function("f").Record(LineLocation{LineOffset: 1, Discriminator: 1 << 20}).Samples = 1
	md5 := NewProfile()
	md5.MD5 = true
	probes := NewProfile()
	probes.ProbeBased = true
	tests := []struct {
		name string
		p    *Profile
		opts GCCOptions
		want string
	}{
		{"line offset past 16 bits", far, GCCOptions{}, "f: location 70000.0 does not fit"},
		{"discriminator past 16 bits", disc, GCCOptions{}, "f: location 1.1048576 does not fit"},
		{"md5 names", md5, GCCOptions{}, "MD5"},
		{"pseudo probes", probes, GCCOptions{}, "pseudo-probe"},
		{"version 1", NewProfile(), GCCOptions{Version: 1}, "writes versions 2 and 3"},
	}
	for _, tt := range tests {
		err := WriteGCC(&bytes.Buffer{}, tt.p, tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	// A discriminator past 16 bits is dropped when folding.
	if err := WriteGCC(&bytes.Buffer{}, disc, GCCOptions{FoldDiscriminators: true}); err != nil {
		t.Errorf("folded: %v", err)
	}
}

// TestReadLargeGCC: Read tells a GCC profile larger than its 64 KiB
// buffer from its head (it once looked again at the head after reading
// on, when the buffer held other bytes, and took the file for extbinary).
func TestReadLargeGCC(t *testing.T) {
	p := NewProfile()
	for i := range 5000 {
		f := p.Function("f" + strconv.Itoa(i))
		f.HeadSamples = 1
		f.Record(LineLocation{LineOffset: 1}).Samples = uint64(i + 1)
	}
	data := gccBytes(t, p, GCCVersion2)
	if len(data) < 1<<16 {
		t.Fatalf("%d bytes: not past the buffer", len(data))
	}
	q, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Functions) != 5000 {
		t.Errorf("read %d functions, want 5000", len(q.Functions))
	}
}

// TestGCCZerosAsOne: with ZerosAsOne the zero counts of an instance whose
// counts add up to 2 or more (hot to GCC 12) are written as 1; those of
// an instance adding up to 0 or 1 stay (1 would make some of them hot).
func TestGCCZerosAsOne(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"hot loop, never-run branch", `f:6300:600
 2: 600
 3: 6300
 5: 0
`, `f:6901:600
 2: 600
 3: 6300
 5: 1
`},
		{"cold function kept", `f:1:1
 1: 1
 2: 0
`, `f:1:1
 1: 1
 2: 0
`},
		{"inlinees: hot raised, cold kept, by their own total", `f:40:4
 1: 0
 2: g:40
  1: 40
  2: 0
 3: h:0
  1: 0
  2: 0
`, `f:42:4
 1: 1
 2: g:41
  1: 40
  2: 1
 3: h:0
  1: 0
  2: 0
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ReadText(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteGCC(&b, p, GCCOptions{ZerosAsOne: true}); err != nil {
				t.Fatal(err)
			}
			if got := gccAsText(t, b.Bytes()); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
