package indexed_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/testutil"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/raw"
)

func readRaws(t *testing.T, files ...string) *instrprof.Profile {
	t.Helper()
	p := instrprof.NewProfile()
	var r raw.Reader
	for _, f := range files {
		buf, err := os.ReadFile(filepath.Join("..", "testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		info, err := r.Read(f, buf, func(rec *instrprof.Record, ref uint64, off int64) error {
			return p.Add(rec, ref, 1, instrprof.Origin{File: f, Offset: off})
		})
		if err != nil {
			t.Fatal(err)
		}
		p.Kind |= info.Kind
		for _, id := range info.BinaryIDs {
			p.BinaryIDs[string(id)] = true
		}
	}
	return p
}

func write(t testing.TB, p *instrprof.Profile) []byte {
	var b bytes.Buffer
	if err := indexed.Write(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var cases = []struct {
	golden string
	raws   []string
	llvm19 bool // llvm-profdata-19 reads the raws (it cannot read v8)
}{
	{"ir19-both.profdata", []string{"ir19-1.profraw", "ir19-2.profraw"}, true},
	{"fe19.profdata", []string{"fe19.profraw"}, true},
	{"vt.profdata", []string{"vt1.profraw", "vt2.profraw"}, true},
	{"cs.profdata", []string{"cs.profraw"}, true},
	{"sb.profdata", []string{"sb1.profraw", "sb2.profraw"}, true},
	{"ir14.profdata", []string{"ir14.profraw"}, false},
}

func TestWriteGolden(t *testing.T) {
	for _, tt := range cases {
		got := write(t, readRaws(t, tt.raws...))
		testutil.Golden(t, filepath.Join("testdata", tt.golden), got)
	}
}

// TestSameAsLLVM compares the bytes with llvm-profdata-22's own output
// (version 13) and with llvm-profdata-19's (version 12).
func TestSameAsLLVM(t *testing.T) {
	for _, ref := range []struct {
		tool    string
		version int
	}{{"llvm-profdata-22", indexed.Version}, {"llvm-profdata-19", indexed.PrevVersion}} {
		t.Run(ref.tool, func(t *testing.T) {
			testutil.Tool(t, ref.tool)
			for _, tt := range cases {
				if !tt.llvm19 {
					continue
				}
				want := llvmMerge(t, ref.tool, tt.raws)
				var got bytes.Buffer
				if err := indexed.WriteVersion(&got, readRaws(t, tt.raws...), ref.version); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Errorf("%s: not byte-identical to %s merge", tt.golden, ref.tool)
				}
			}
		})
	}
}

// llvmMerge is tool's merge of the raws in ../testdata.
func llvmMerge(t *testing.T, tool string, raws []string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "ref.profdata")
	args := []string{"merge", "-o", out}
	for _, r := range raws {
		args = append(args, filepath.Join("..", "testdata", r))
	}
	if msg, err := exec.Command(tool, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, msg)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

func TestRoundTrip(t *testing.T) {
	for _, tt := range cases {
		first := write(t, readRaws(t, tt.raws...))
		p := instrprof.NewProfile()
		info, err := indexed.Read(tt.golden, first, func(rec *instrprof.Record, off int64) error {
			return p.Add(rec, 0, 1, instrprof.Origin{File: tt.golden, Offset: off})
		})
		if err != nil {
			t.Fatal(err)
		}
		p.Kind = info.Kind
		for _, id := range info.BinaryIDs {
			p.BinaryIDs[string(id)] = true
		}
		if second := write(t, p); !bytes.Equal(first, second) {
			t.Errorf("%s: write → read → write changed the bytes", tt.golden)
		}
	}
}

// TestVTableNames: the vtable names section (--keep-vtable-symbols) is
// written as a compressed names chunk and read back, padded to 8 bytes.
func TestVTableNames(t *testing.T) {
	tests := [][]string{nil, {"_ZTV1A"}, {"_ZTV2D2", "_ZTV2D1", "_ZTV12LongerName_1"}}
	for _, names := range tests {
		p := instrprof.NewProfile()
		p.AddVTableNames(names)
		b := write(t, p)
		if len(b)%8 != 0 {
			t.Errorf("%v: %d bytes, not a multiple of 8", names, len(b))
		}
		info, err := indexed.Read("vt", b, func(*instrprof.Record, int64) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if want := slices.Sorted(slices.Values(names)); !slices.Equal(info.VTableNames, want) {
			t.Errorf("read back %q, want %q", info.VTableNames, want)
		}
	}
}

func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.profdata"))
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	withNames := instrprof.NewProfile()
	withNames.AddVTableNames([]string{"_ZTV1A", "_ZTV1B"})
	f.Add(write(f, withNames))
	for _, h := range hostileHeaders {
		f.Add(patched(f, h.at, h.val))
	}
	for v := uint64(1); v < 7; v++ { // the layouts of versions 1 to 6
		f.Add(patched(f, 8, v))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		indexed.Read("fuzz", b, func(*instrprof.Record, int64) error { return nil })
	})
}

// TestRecordOrder: the records of one name are in LLVM's DenseMap order
// (bucket (hash*37) mod 64), not in hash order.
func TestRecordOrder(t *testing.T) {
	p := instrprof.NewProfile()
	for _, h := range []uint64{1, 2} {
		p.Add(&instrprof.Record{Name: "f", Hash: h, Counts: []uint64{h}}, 0, 1, instrprof.Origin{})
	}
	var got []uint64
	if _, err := indexed.Read("x", write(t, p), func(rec *instrprof.Record, _ int64) error {
		got = append(got, rec.Hash)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Errorf("record order %v, want [2 1]", got)
	}
}
