package sampleprof

import (
	"bytes"
	"encoding/binary"
	"os"
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
	w.b = append(w.b, GCCMagic...)
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
		{"other version", append([]byte("adcg*804"), good[8:]...), "not a GCC AutoFDO profile"},
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
	if b, err := os.ReadFile(filepath.Join("testdata", "gcc.afdo")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ReadGCC(b)
	})
}
