package generate

import (
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/sampleprof"
)

// TestZeroUnsampled: the lines of a sampled function that no sample hit
// are listed with zero samples, the sampled ones keep their hits, and the
// function's total is its body's (A's line 11 is 0x100 and 0x104, 12 is 0x108,
// 13 is 0x10c).
func TestZeroUnsampled(t *testing.T) {
	tests := []struct {
		name   string
		zero   bool
		blocks bool
		hits   map[uint64]uint64
		want   map[uint32]uint64 // line offset → samples
		absent []uint32          // lines without a record
	}{
		{"off: unsampled lines absent", false, false, map[uint64]uint64{0x108: 3}, map[uint32]uint64{2: 3}, []uint32{1, 3}},
		{"on: unsampled lines zero", true, false, map[uint64]uint64{0x108: 3}, map[uint32]uint64{1: 0, 2: 3, 3: 0}, nil},
		{"on: a line sampled at one of its addresses", true, false, map[uint64]uint64{0x104: 2}, map[uint32]uint64{1: 2, 2: 0, 3: 0}, nil},
		{"with blocks: a sampled block's lines all counted", true, true, map[uint64]uint64{0x100: 4}, map[uint32]uint64{1: 1, 2: 1, 3: 1}, nil},
	}
	for _, tt := range tests {
		counts := &aggregate.StackCounts{Objects: []aggregate.Object{{Path: "prog", Binary: 0}}}
		for a, n := range tt.hits {
			counts.Stacks = append(counts.Stacks, &aggregate.Stack{Locs: []aggregate.Loc{{Obj: 0, Addr: a}}, Count: n})
		}
		code := branchyCode{}
		p := StackProfiles(counts, []StackBinary{{Sym: code, Code: code, CallCounts: CallCountsNone,
			ZeroUnsampled: tt.zero, BodyByBlocks: tt.blocks}})[0]
		a := p.Functions["A"]
		for line, want := range tt.want {
			r := a.Body[sampleprof.LineLocation{LineOffset: line}]
			if r == nil || r.Samples != want {
				t.Errorf("%s: line %d is %v, want %d samples", tt.name, line, r, want)
			}
		}
		for _, line := range tt.absent {
			if r := a.Body[sampleprof.LineLocation{LineOffset: line}]; r != nil {
				t.Errorf("%s: line %d has a record (%d samples), want none", tt.name, line, r.Samples)
			}
		}
		var sum uint64
		for _, r := range a.Body {
			sum += r.Samples
		}
		if a.TotalSamples != sum {
			t.Errorf("%s: total %d, want the body's sum %d", tt.name, a.TotalSamples, sum)
		}
	}
}
