package indexed_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
)

// hostileHeaders are header fields (byte offset, value) that once made the
// reader panic: offsets near 2^64 overflowed the bounds checks.
var hostileHeaders = []struct {
	at   int
	val  uint64
	want string
}{
	{32, 1<<64 - 1, "offset 0x20: hash table offset"},
	{32, 1<<64 - 8, "offset 0x20: hash table offset"},
	{32, 1<<64 - 16, "offset 0x20: hash table offset"},
	{32, 1 << 63, "offset 0x20: hash table offset"},
	{48, 1<<64 - 1, "offset 0x30: binary ids offset"},
	{48, 1<<64 - 8, "offset 0x30: binary ids offset"},
	{48, 1 << 63, "offset 0x30: binary ids offset"},
}

// patched returns the golden profile with the u64 at byte at set to val.
func patched(t testing.TB, at int, val uint64) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "ir19-both.profdata"))
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint64(b[at:], val)
	return b
}

func TestHostileOffsets(t *testing.T) {
	for _, tt := range hostileHeaders {
		_, err := indexed.Read("x.profdata", patched(t, tt.at, tt.val), func(*instrprof.Record, int64) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "x.profdata: "+tt.want) {
			t.Errorf("u64 at %d = %#x: error %v, want one naming %q", tt.at, tt.val, err, tt.want)
		}
	}
}
