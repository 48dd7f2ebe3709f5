package csprofile

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/testutil"
)

// parityInput is a hand-written flat CS profile of cmd/profgen's parity
// table (its README), where llvm-profdata-22 nests the same input.
func parityInput(name string) string {
	return filepath.Join("..", "..", "cmd", "profgen", "testdata", "parity", name)
}

// TestNest: flat CS profiles nested as llvm-profdata merge
// --convert-sample-profile-layout=nest does, with and without
// --generate-merged-base-profiles (the goldens are llvm-profdata-22's
// text; cmd/profgen's parity table runs it on them).
func TestNest(t *testing.T) {
	for _, tt := range []struct {
		golden     string
		input      string
		mergedBase bool
	}{
		{"lines.golden", "cs-nest.sample.txt", false},
		{"lines-merged-base.golden", "cs-nest.sample.txt", true},
		{"probes.golden", "cs-nest-probe.sample.txt", false},
		{"probes-merged-base.golden", "cs-nest-probe.sample.txt", true},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			p, err := sampleprof.ReadFile(parityInput(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			out := Nest(p, tt.mergedBase)
			if out.CS {
				t.Error("the nested profile is still flagged context-sensitive")
			}
			if out.ProbeBased != p.ProbeBased || out.PreInlined != p.PreInlined {
				t.Errorf("flags: probes %v pre-inlined %v, want %v %v", out.ProbeBased, out.PreInlined, p.ProbeBased, p.PreInlined)
			}
			var b bytes.Buffer
			if err := sampleprof.WriteText(&b, out); err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, filepath.Join("testdata", "nest", tt.golden), b.Bytes())
		})
	}
}

// TestNestWithoutContexts: a profile without contexts is left as it is.
func TestNestWithoutContexts(t *testing.T) {
	p := sampleprof.NewProfile()
	p.Function("main").TotalSamples = 3
	if got := Nest(p, true); got != p {
		t.Error("a profile without contexts was rebuilt")
	}
}
