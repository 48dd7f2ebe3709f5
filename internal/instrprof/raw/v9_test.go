package raw_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/instrprof/text"
)

// toV9 rewrites a version 10 raw without vtables in the version 9 layout
// (LLVM 18): no NumVTables/VNamesSize header fields, two value kinds, and
// NumBitmapBytes right after the two value-site counts.
func toV9(t *testing.T, v10 []byte) []byte {
	le := binary.LittleEndian
	h := make([]uint64, 16)
	for i := range h {
		h[i] = le.Uint64(v10[8*i:])
	}
	if h[13] != 0 || h[14] != 0 {
		t.Fatal("input has vtables")
	}
	var out []byte
	for i, w := range h {
		switch i {
		case 1:
			w = w&^0xffffffff | 9
		case 13, 14:
			continue
		case 15:
			w = 1
		}
		out = le.AppendUint64(out, w)
	}
	body := v10[16*8:]
	ids := int(h[2])
	out = append(out, body[:ids]...)
	for i := 0; i < int(h[3]); i++ {
		rec := append([]byte(nil), body[ids+64*i:ids+64*(i+1)]...)
		if le.Uint16(rec[56:]) != 0 {
			t.Fatal("input record has vtable sites")
		}
		le.PutUint32(rec[56:], le.Uint32(rec[60:]))
		le.PutUint32(rec[60:], 0)
		out = append(out, rec...)
	}
	return append(out, body[ids+64*int(h[3]):]...)
}

func TestReadVersion9(t *testing.T) {
	for _, name := range []string{"ir19-1", "fe19"} {
		v10, err := os.ReadFile(filepath.Join("..", "testdata", name+".profraw"))
		if err != nil {
			t.Fatal(err)
		}
		p := instrprof.NewProfile()
		var r raw.Reader
		info, err := r.Read(name, toV9(t, v10), func(rec *instrprof.Record, ref uint64, off int64) error {
			return p.Add(rec, ref, 1, instrprof.Origin{})
		})
		if err != nil {
			t.Fatal(err)
		}
		if info.Version != 9 {
			t.Errorf("version %d", info.Version)
		}
		p.Kind = info.Kind
		var got bytes.Buffer
		text.Write(&got, p)
		want, _ := os.ReadFile(filepath.Join("..", "testdata", name+".ref.txt"))
		if got.String() != string(want) {
			t.Errorf("%s as v9 reads differently:\n%s", name, got.String())
		}
	}
}
