package indexed_test

import (
	"testing"

	"github.com/profgen/profgen/internal/instrprof/indexed"
)

// TestCountFrontEndHashes reads the hashes of raws from clang 19 and 22:
// packed hashes say nothing, MD5 ones say which clang hashed them.
func TestCountFrontEndHashes(t *testing.T) {
	for _, tt := range []struct {
		raw              string
		want             indexed.FrontEndHashes
		clang21, clang22 bool
	}{
		{"fe19.profraw", indexed.FrontEndHashes{}, false, false}, // packed hashes only
		{"fehash19.profraw", indexed.FrontEndHashes{V3: 12}, true, false},
		{"fehash22.profraw", indexed.FrontEndHashes{V4Like: 12}, false, true},
		{"ir19-1.profraw", indexed.FrontEndHashes{}, false, false}, // IR hashes are not the front end's
	} {
		h := indexed.CountFrontEndHashes(readRaws(t, tt.raw))
		if h != tt.want || h.Clang21() != tt.clang21 || h.Clang22() != tt.clang22 {
			t.Errorf("%s: %+v (clang 21 %v, 22 %v), want %+v (%v, %v)", tt.raw, h, h.Clang21(), h.Clang22(), tt.want, tt.clang21, tt.clang22)
		}
	}
}
