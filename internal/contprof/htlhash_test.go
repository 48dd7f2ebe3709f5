package contprof

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestHTLHash: the hash of files shorter than one part, between one and
// two parts, and longer, against the definition spelled out.
func TestHTLHash(t *testing.T) {
	for _, size := range []int{0, 100, 4096, 6000, 8192, 100000} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i * 7)
		}
		head, tail := data[:min(size, 4096)], data[size-min(size, 4096):]
		n := []byte{0, 0, 0, 0, byte(size >> 24), byte(size >> 16), byte(size >> 8), byte(size)}
		sum := sha256.Sum256(append(append(append([]byte{}, head...), tail...), n...))
		got, err := HTLHash(bytes.NewReader(data), int64(size))
		if want := hex.EncodeToString(sum[:16]); err != nil || got != want {
			t.Errorf("size %d: %s, %v; want %s", size, got, err, want)
		}
	}
}
