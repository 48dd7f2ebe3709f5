package contprof

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/testutil"
)

// TestOTLPBombs: a dictionary of 24M empty locations (a 48 MiB file) is
// refused before decoding, the same gzipped (~50 KB) is refused while
// inflating, and 8M samples of a 100,000-frame stack (48 MiB) make one
// Sample: all under a 2 GiB address-space limit within 30 s.
func TestOTLPBombs(t *testing.T) {
	if !testutil.Limited(t, 2<<30, 30*time.Second) {
		return
	}
	locations := bytes.Repeat([]byte{0x12, 0}, 24<<20)
	bomb := otlpMessage(locations, cpuProfile())
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"dictionary", bomb, "MiB allowed"},
		{"gzipped", gzipped(t, bomb), "compression bomb"},
		{"samples", deepStackSamples(100000, 8<<20), ""},
	}
	for _, tt := range tests {
		p, err := Decode(tt.data, Options{})
		switch {
		case tt.want == "" && (err != nil || p.Stats.Weight != 8<<20 || len(p.Samples) != 1):
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: error %v, want one with %q", tt.name, err, tt.want)
		}
		t.Logf("%s (%d bytes): %v", tt.name, len(tt.data), err)
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// deepStackSamples is a message of n samples of weight 1, each of one
// stack of depth frames of testDict's leaf location.
func deepStackSamples(depth, n int) pb {
	locs := make([]uint64, depth)
	for i := range locs {
		locs[i] = 1
	}
	dict := testDict().m(dictStacks, pb{}.packed(1, locs...))
	sample := pb{}.m(2, pb{}.v(1, 4).packed(4, 1))
	return otlpMessage(dict, append(cpuProfile(), bytes.Repeat(sample, n)...))
}
