package generate

import (
	"iter"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/sampleprof"
)

// branchyCode is twoInstLine's function A [0x100, 0x110) with a
// conditional branch at each address of branches, to target.
type branchyCode struct {
	twoInstLine
	branches map[uint64]bool
	target   uint64
}

func (c branchyCode) Insts(first, last uint64) iter.Seq[binary.Inst] {
	return func(yield func(binary.Inst) bool) {
		for a := first; a <= last && a < 0x110; a += 4 {
			k := insn.Other
			if c.branches[a] {
				k = insn.CondBranch
			}
			if !yield(binary.Inst{Addr: a, Size: 4, Kind: k}) {
				return
			}
		}
	}
}

func (c branchyCode) DirectTarget(in binary.Inst) (uint64, bool) {
	return c.target, c.target != 0 && in.Kind == insn.CondBranch
}

// blockCase is a test of how the lines of function A get their body
// counts from the hits at its addresses (A's line 11 is 0x100 and 0x104,
// 12 is 0x108, 13 is 0x10c).
type blockCase struct {
	name     string
	branches map[uint64]bool
	target   uint64
	hits     map[uint64]uint64
	want     map[uint32]uint64 // line offset → samples; absent lines are 0
}

// checkBlockLines converts tt's hits with the options of bin (its Sym and
// Code are set here) and checks A's lines and that its total is their sum.
func checkBlockLines(t *testing.T, tt blockCase, bin StackBinary) {
	t.Helper()
	counts := &aggregate.StackCounts{Objects: []aggregate.Object{{Path: "prog", Binary: 0}}}
	for a, n := range tt.hits {
		counts.Stacks = append(counts.Stacks, &aggregate.Stack{Locs: []aggregate.Loc{{Obj: 0, Addr: a}}, Count: n})
	}
	code := branchyCode{branches: tt.branches, target: tt.target}
	bin.Sym, bin.Code = code, code
	a := StackProfiles(counts, []StackBinary{bin})[0].Functions["A"]
	for line := uint32(1); line <= 3; line++ {
		var got uint64
		if r := a.Body[sampleprof.LineLocation{LineOffset: line}]; r != nil {
			got = r.Samples
		}
		if got != tt.want[line] {
			t.Errorf("%s: line %d has %d samples, want %d", tt.name, line, got, tt.want[line])
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

// TestBodyByBlocks: a block's hits per instruction are how often it ran,
// a line's count the largest of its instructions', scaled to keep the
// total.
func TestBodyByBlocks(t *testing.T) {
	tests := []blockCase{
		{"one block, every line as often", nil, 0, map[uint64]uint64{0x100: 4}, map[uint32]uint64{1: 1, 2: 1, 3: 1}},
		{"branch ends a block", map[uint64]bool{0x104: true}, 0, map[uint64]uint64{0x100: 4}, map[uint32]uint64{1: 4}},
		{"branch target starts one", map[uint64]bool{0x104: true}, 0x10c, map[uint64]uint64{0x108: 1, 0x10c: 3},
			map[uint32]uint64{2: 1, 3: 3}},
		{"a line as its most run block", map[uint64]bool{0x100: true}, 0, map[uint64]uint64{0x100: 1, 0x108: 6},
			map[uint32]uint64{1: 2, 2: 2, 3: 2}},
		{"at least 1 in a sampled block", nil, 0, map[uint64]uint64{0x10c: 1}, map[uint32]uint64{1: 1, 2: 1, 3: 1}},
	}
	for _, tt := range tests {
		checkBlockLines(t, tt, StackBinary{CallCounts: CallCountsNone, BodyByBlocks: true})
	}
}

// TestBodyBlockMax: the lines of a sampled block are raised to the block's
// most hit line, counting the hits at the block's own addresses only.
func TestBodyBlockMax(t *testing.T) {
	tests := []blockCase{
		{"one block, every line its most hit", nil, 0, map[uint64]uint64{0x100: 1, 0x108: 5}, map[uint32]uint64{1: 5, 2: 5, 3: 5}},
		{"an unsampled block stays", map[uint64]bool{0x104: true}, 0, map[uint64]uint64{0x100: 4}, map[uint32]uint64{1: 4}},
		{"blocks apart", map[uint64]bool{0x104: true}, 0x10c, map[uint64]uint64{0x108: 1, 0x10c: 3}, map[uint32]uint64{2: 1, 3: 3}},
		{"a line's hits in another block do not raise this one", map[uint64]bool{0x100: true}, 0, map[uint64]uint64{0x100: 2, 0x108: 1},
			map[uint32]uint64{1: 2, 2: 1, 3: 1}},
		{"a block's share of a line spread over blocks", map[uint64]bool{0x100: true}, 0, map[uint64]uint64{0x100: 5, 0x104: 1},
			map[uint32]uint64{1: 6, 2: 1, 3: 1}},
	}
	for _, tt := range tests {
		checkBlockLines(t, tt, StackBinary{CallCounts: CallCountsNone, BodyBlockMax: true})
	}
}
