package inflate

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"testing"
)

func deflate(b []byte) []byte {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(b)
	w.Close()
	return z.Bytes()
}

func TestZlib(t *testing.T) {
	small := bytes.Repeat([]byte("name\x01"), 1000)
	bomb := make([]byte, Budget+1<<20) // zeros: ~1000x
	tests := []struct {
		name    string
		z       []byte
		size    uint64
		wantErr error
		ok      bool
	}{
		{"exact", deflate(small), uint64(len(small)), nil, true},
		{"declared too small", deflate(small), uint64(len(small)) - 1, nil, false},
		{"declared too large", deflate(small), uint64(len(small)) + 1, nil, false},
		{"bomb", deflate(bomb), uint64(len(bomb)), ErrTooLarge, false},
		{"absurd size", deflate(small), 1 << 62, ErrTooLarge, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Zlib(tt.z, tt.size)
			if tt.ok != (err == nil) || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
				t.Fatalf("err = %v, want ok=%v cause %v", err, tt.ok, tt.wantErr)
			}
			if tt.ok && !bytes.Equal(out, small) {
				t.Error("content differs")
			}
		})
	}
}

func TestReader(t *testing.T) {
	for _, tt := range []struct {
		n, limit int64
		ok       bool
	}{{10, 10, true}, {10, 11, true}, {11, 10, false}} {
		_, err := io.ReadAll(Reader(bytes.NewReader(make([]byte, tt.n)), tt.limit))
		if (err == nil) != tt.ok || (!tt.ok && !errors.Is(err, ErrTooLarge)) {
			t.Errorf("%d bytes, limit %d: err %v", tt.n, tt.limit, err)
		}
	}
}
