package sampleprof

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// gcovWriter writes the GCC AutoFDO layout ReadGCC reads, for fixtures.
type gcovWriter struct{ b []byte }

func (w *gcovWriter) u32(vs ...uint32) {
	for _, v := range vs {
		w.b = binary.LittleEndian.AppendUint32(w.b, v)
	}
}

func (w *gcovWriter) u64(v uint64) { w.u32(uint32(v), uint32(v>>32)) }

func (w *gcovWriter) str(s string) {
	n := (len(s) + 4) / 4 // NUL-terminated, padded to words
	w.u32(uint32(n))
	w.b = append(w.b, s...)
	w.b = append(w.b, make([]byte, 4*n-len(s))...)
}

// gccFixture is testdata/gcc.afdo: main (a call target, an inlined bar
// with an inlined baz), foo, and main again (an alias, whose samples LLVM
// ignores but whose head count it adds).
func gccFixture() []byte {
	w := &gcovWriter{}
	w.b = append(w.b, "adcg*704"...)
	w.u32(0)
	names := []string{"main", "foo", "bar", "baz", "_ZN1A3getEv.llvm.123"}
	w.u32(gcovTagNames, 0, uint32(len(names)))
	for _, n := range names {
		w.str(n)
	}
	w.u32(gcovTagFunctions, 0, 3)
	// main: head 10; line 1: 100; line 2.1: 40 with targets foo 30 and
	// _ZN1A3getEv.llvm.123 10; bar inlined at line 3
	w.u64(10)
	w.u32(0, 2, 1)
	w.u32(1<<16, 0)
	w.u64(100)
	w.u32(2<<16|1, 2)
	w.u64(40)
	w.u32(gcovHistICTopN)
	w.u64(1)
	w.u64(30)
	w.u32(gcovHistICTopN)
	w.u64(4)
	w.u64(10)
	w.u32(3 << 16)
	w.u32(2, 1, 1) // bar: line 1: 20; baz inlined at line 4.2
	w.u32(1<<16, 0)
	w.u64(20)
	w.u32(4<<16 | 2)
	w.u32(3, 1, 0) // baz: line 0: 7
	w.u32(0, 0)
	w.u64(7)
	// foo: head 30; line 1: 30
	w.u64(30)
	w.u32(1, 1, 0)
	w.u32(1<<16, 0)
	w.u64(30)
	// main again: head 5; line 1: 999 (ignored)
	w.u64(5)
	w.u32(0, 1, 0)
	w.u32(1<<16, 0)
	w.u64(999)
	w.u32(0xae000000, 0) // module grouping: not read
	return w.b
}

// TestGCCFixture: testdata/gcc.afdo is gccFixture's bytes (-update
// rewrites it), and reads as LLVM reads it.
func TestGCCFixture(t *testing.T) {
	path := filepath.Join("testdata", "gcc.afdo")
	testutil.Golden(t, path, gccFixture())
	p, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := WriteText(&text, p); err != nil {
		t.Fatal(err)
	}
	want := `main:167:15
 1: 100
 2.1: 40 foo:30 _ZN1A3getEv.llvm.123:10
 3: bar:27
  1: 20
  4.2: baz:7
   0: 7
foo:30:30
 1: 30
`
	if text.String() != want {
		t.Errorf("read as\n%s\nwant\n%s", text.String(), want)
	}
}

func TestGCCDamage(t *testing.T) {
	good := gccFixture()
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated", good[:len(good)/2], "truncated"},
		{"bad name index", patch(good, 108, 9), "name index 9 outside"},
		{"bad section tag", patch(good, 12, 1), "name table section expected"},
		{"other version", append([]byte("adcg*804"), good[8:]...), "offset 4: GCC AutoFDO profile version 0x3430382a"},
		{"other magic", append([]byte("gcda*704"), good[8:]...), "offset 0: not a GCC AutoFDO profile"},
	}
	for _, tt := range tests {
		_, err := ReadGCC(tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

func patch(b []byte, at int, v uint32) []byte {
	c := append([]byte(nil), b...)
	binary.LittleEndian.PutUint32(c[at:], v)
	return c
}

func FuzzReadGCC(f *testing.F) {
	f.Add(gccFixture())
	addSeeds(f, "testdata/*.afdo", "testdata/golden/*.afdo")
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ReadGCC(b)
		if err != nil {
			return
		}
		checkStable(t, p, FormatGCC)
	})
}

// TestGCCHostile: damaged version 2 and 3 files give an error with the
// offset of the bad word, quickly and without allocating what the counts
// claim.
func TestGCCHostile(t *testing.T) {
	v2 := gccBytes(t, readGCCSource(t), GCCVersion2)
	v3 := gccBytes(t, readGCCSource(t), GCCVersion3)
	namesAt := 12 + 8 // the name count of a version 2 file
	functionsAt := bytes.Index(v2, []byte{0, 0, 0, 0xac}) + 8
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"v2 truncated in the functions", v2[:0x90], "truncated"},
		{"v3 truncated in the summary", v3[:40], "offset 16: truncated"},
		{"v2 name count near 2^32", patch(v2, namesAt, 0xfffffffe), "offset 20: 4294967294 strings cannot fit"},
		{"v2 string length 0", patch(v2, namesAt+4, 0), "offset 24: empty string"},
		{"v2 string past the end", patch(v2, namesAt+4, 0x7fffffff), "offset 24: string of 2147483647 bytes runs past the file"},
		{"v3 summary entries near 2^64", patch(patch(v3, 4*14, 0xffffffff), 4*15, 0xffffffff), "offset 56: summary of 18446744073709551615 entries"},
		{"v3 no summary", patch(v3, 12, gcovTagNames), "offset 12: summary section expected"},
		{"v2 function count near 2^32", patch(v2, functionsAt, 0xffffffff), "truncated"},
		{"nesting bomb", gccNestingBomb(maxInlineDepth + 2), "inlined more than 10000 deep"},
	}
	for _, tt := range tests {
		_, err := ReadGCC(tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}

// gccNestingBomb is a version 2 profile of one function inlined into
// itself depth times.
func gccNestingBomb(depth int) []byte {
	w := &gcovWriter{}
	w.b = append(w.b, GCCMagic...)
	w.u32(GCCVersion2, 0, gcovTagNames, 0, 2, 1)
	w.b = append(w.b, 0)
	w.u32(2)
	w.b = append(w.b, 'f', 0)
	w.u32(gcovTagFunctions, 0, 1)
	w.u64(1)
	for i := 0; i < depth; i++ {
		w.u32(1, 0, 1, 1<<16) // f, no positions, one call site at line 1
	}
	w.u32(1, 0, 0)
	return w.b
}
