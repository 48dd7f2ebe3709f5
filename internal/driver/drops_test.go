package driver

import (
	"maps"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/unwind"
)

// TestSampleCounts: the fleet's counts of a scan add up, used and dropped
// to the samples, with the summary's reasons.
func TestSampleCounts(t *testing.T) {
	tests := []struct {
		name string
		res  *result
		want SampleCounts
	}{
		{"hybrid, more samples without a call stack than with",
			&result{hybrid: &hybridPath{mode: modeCS, sum: hybridSummary{Samples: 10, NoStack: 30, NoMapping: 1, PrologEpilog: 2,
				Unwind: unwind.Stats{PrologEpilog: 1, NoBranches: 3}}}, stacks: &aggregate.StackCounts{}},
			SampleCounts{Samples: 40, Used: 3, Dropped: map[string]uint64{"no call stack": 30, "no mapping": 1, "prolog or epilog": 3, "no branch in the binary": 3}}},
		{"call stacks",
			&result{hybrid: &hybridPath{}, stacks: &aggregate.StackCounts{Stats: aggregate.StackStats{Samples: 9, Used: 5, NoBinary: 3, Filtered: 1}},
				events: eventFilter{dropped: 4}},
			SampleCounts{Samples: 9, Used: 5, Dropped: map[string]uint64{"no frame in the binaries": 3, "filtered": 1, "other events": 4}}},
	}
	for _, tt := range tests {
		got := tt.res.sampleCounts()
		if got.Samples != tt.want.Samples || got.Used != tt.want.Used || !maps.Equal(got.Dropped, tt.want.Dropped) {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
