package perfdata

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/perfdatafile"
)

// hostileHeaders are header fields (byte offset, value) no file can hold;
// a data size of 2^64-1 made perf script, and profgen with it, hang.
var hostileHeaders = []struct {
	at   int
	val  uint64
	want string
}{
	{48, 1<<64 - 1, "at byte 40: data section"},
	{40, 1<<64 - 1, "at byte 40: data section"},
	{32, 1 << 40, "at byte 24: attrs section"},
	{24, 1<<64 - 8, "at byte 24: attrs section"},
	{64, 1 << 62, "at byte 56: event types section"},
	{8, 1 << 63, "at byte 8: header size"},
}

func patchedHeader(t testing.TB, at int, val uint64) []byte {
	b, err := os.ReadFile(forkyData)
	if err != nil {
		t.Fatal(err)
	}
	binary.LittleEndian.PutUint64(b[at:], val)
	return b
}

func TestHostileHeader(t *testing.T) {
	for _, tt := range hostileHeaders {
		_, err := contentOfBytes(patchedHeader(t, tt.at, tt.val), "bad.data")
		if err == nil || !strings.Contains(err.Error(), "bad.data: perf.data header "+tt.want) || len(err.Error()) > 300 {
			t.Errorf("u64 at %d = %#x: error %v, want %q", tt.at, tt.val, err, tt.want)
		}
	}
	good, _ := os.ReadFile(forkyData)
	if _, err := contentOfBytes(good[:50], "cut.data"); err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Errorf("header cut short: %v", err)
	}
}

func contentOfBytes(b []byte, name string) (Content, error) {
	r, err := perfdatafile.OpenBytes(b, name)
	if err != nil {
		return Content{}, err
	}
	defer r.Close()
	return contentOf(r)
}
