package driver

import (
	"testing"

	"github.com/profgen/profgen/internal/generate"
)

// TestStackCounting: the flags' defaults are estimated calls, zeros for
// unsampled lines and block-max body counts; each flag switches its part.
func TestStackCounting(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want generate.StackBinary
	}{
		{"defaults", Options{}, generate.StackBinary{CallCounts: generate.CallCountsEstimate, BodyBlockMax: true, ZeroUnsampled: true}},
		{"block-max named", Options{BodyCounts: "block-max"}, generate.StackBinary{BodyBlockMax: true, ZeroUnsampled: true}},
		{"hits, no zeros (before)", Options{BodyCounts: "hits", NoZeroUnsampledLines: true}, generate.StackBinary{}},
		{"blocks", Options{BodyCounts: "blocks"}, generate.StackBinary{BodyByBlocks: true, ZeroUnsampled: true}},
		{"per-instruction", Options{BodyCounts: "per-instruction"}, generate.StackBinary{BodyPerInstruction: true, ZeroUnsampled: true}},
		{"control", Options{CallCounts: "none"}, generate.StackBinary{CallCounts: generate.CallCountsNone, BodyBlockMax: true, ZeroUnsampled: true}},
	}
	for _, tt := range tests {
		got := stackCounting(newPlan(tt.opts))
		if got.CallCounts != tt.want.CallCounts || got.BodyBlockMax != tt.want.BodyBlockMax || got.ZeroUnsampled != tt.want.ZeroUnsampled ||
			got.BodyByBlocks != tt.want.BodyByBlocks || got.BodyPerInstruction != tt.want.BodyPerInstruction {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
