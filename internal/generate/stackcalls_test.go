package generate

import (
	"iter"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// fakeCode is a binary of three functions, A [0x100, 0x200), B [0x200,
// 0x300) and C [0x300, 0x400), each of one line per 4 bytes; B's entry
// block ends at the branch at 0x204, C's at the return at 0x304.
type fakeCode struct{}

var fakeFuncs = []*symbolize.Function{{Name: "A"}, {Name: "B"}, {Name: "C"}}

func (fakeCode) Frames(addr uint64, dst []symbolize.Frame) []symbolize.Frame {
	i := int(addr/0x100) - 1
	if i < 0 || i >= len(fakeFuncs) {
		return dst[:0]
	}
	return append(dst[:0], symbolize.Frame{Func: fakeFuncs[i].Name, Line: uint32(10 + addr%0x100/4), StartLine: 10})
}

func (fakeCode) FuncRangeAt(addr uint64) *symbolize.FuncRange {
	i := int(addr/0x100) - 1
	if i < 0 || i >= len(fakeFuncs) {
		return nil
	}
	start := addr &^ 0xff
	return &symbolize.FuncRange{Func: fakeFuncs[i], Start: start, End: start + 0x100, IsEntry: true}
}

func (fakeCode) Insts(first, last uint64) iter.Seq[binary.Inst] {
	return func(yield func(binary.Inst) bool) {
		for a := first; a <= last && a < 0x400; a += 4 {
			k := insn.Other
			switch a {
			case 0x204:
				k = insn.CondBranch
			case 0x304:
				k = insn.Return
			}
			if !yield(binary.Inst{Addr: a, Size: 4, Kind: k}) {
				return
			}
		}
	}
}

func (fakeCode) DirectTarget(binary.Inst) (uint64, bool) { return 0, false }

// TestStackCallCounts: head samples and call targets from call stacks, in
// each --call-counts mode. B runs 204 samples below two call sites of A,
// 4 of them in its entry block; C runs 2, in its entry block.
func TestStackCallCounts(t *testing.T) {
	stack := func(n uint64, addrs ...uint64) *aggregate.Stack {
		s := &aggregate.Stack{Count: n}
		for _, a := range addrs {
			s.Locs = append(s.Locs, aggregate.Loc{Obj: 0, Addr: a})
		}
		return s
	}
	counts := &aggregate.StackCounts{
		Objects: []aggregate.Object{{Path: "prog", Binary: 0}},
		Stacks: []*aggregate.Stack{
			stack(4, 0x200, 0x150),
			stack(100, 0x240, 0x150),
			stack(100, 0x240, 0x160),
			stack(2, 0x300, 0x170),
		},
	}
	at := func(addr uint64) sampleprof.LineLocation {
		return sampleprof.LineLocation{LineOffset: uint32(addr % 0x100 / 4)}
	}
	tests := []struct {
		mode    CallCounts
		heads   map[string]uint64
		targets map[uint64]uint64 // call site in A → count
	}{
		{CallCountsEstimate, map[string]uint64{"B": 4, "C": 2}, map[uint64]uint64{0x150: 2, 0x160: 2, 0x170: 2}},
		{CallCountsInclusive, map[string]uint64{"B": 204, "C": 2}, map[uint64]uint64{0x150: 104, 0x160: 100, 0x170: 2}},
		{CallCountsNone, map[string]uint64{"B": 0, "C": 0}, map[uint64]uint64{}},
		// B's entry block is 2 instructions with 4 samples: 2 calls, one
		// per site; C's 2 with 2 samples: 1 call.
		{CallCountsExecutions, map[string]uint64{"B": 4, "C": 2}, map[uint64]uint64{0x150: 1, 0x160: 1, 0x170: 1}},
	}
	for _, tt := range tests {
		p := StackProfiles(counts, []StackBinary{{Sym: fakeCode{}, Code: fakeCode{}, CallCounts: tt.mode}})[0]
		for fn, want := range tt.heads {
			if got := p.Functions[fn].HeadSamples; got != want {
				t.Errorf("mode %d: %s head samples %d, want %d", tt.mode, fn, got, want)
			}
		}
		a := p.Functions["A"]
		if a == nil {
			a = sampleprof.NewFunctionSamples("A") // no samples of its own, no calls
		}
		got := map[uint64]uint64{}
		for _, site := range []uint64{0x150, 0x160, 0x170} {
			if r := a.Body[at(site)]; r != nil {
				for _, n := range r.CallTargets {
					got[site] += n
				}
				if tt.mode != CallCountsInclusive && r.Samples < got[site] {
					t.Errorf("mode %d: call site %#x body %d below its calls %d", tt.mode, site, r.Samples, got[site])
				}
			}
		}
		if len(got) != len(tt.targets) {
			t.Errorf("mode %d: call targets %v, want %v", tt.mode, got, tt.targets)
		}
		for site, want := range tt.targets {
			if got[site] != want {
				t.Errorf("mode %d: call site %#x: %d calls, want %d", tt.mode, site, got[site], want)
			}
		}
	}
}

// twoInstLine is a function A [0x100, 0x110) whose first line has two
// instructions (0x100, 0x104), its second and third one each.
type twoInstLine struct{ fakeCode }

func (twoInstLine) Frames(addr uint64, dst []symbolize.Frame) []symbolize.Frame {
	line := map[uint64]uint32{0x100: 11, 0x104: 11, 0x108: 12, 0x10c: 13}[addr]
	if line == 0 {
		return dst[:0]
	}
	return append(dst[:0], symbolize.Frame{Func: "A", Line: line, StartLine: 10})
}

func (twoInstLine) FuncRangeAt(addr uint64) *symbolize.FuncRange {
	fn := &symbolize.Function{Name: "A", Ranges: [][2]uint64{{0x100, 0x110}}}
	return &symbolize.FuncRange{Func: fn, Start: 0x100, End: 0x110, IsEntry: true}
}

// TestBodyPerInstruction: hits per instruction of the line, scaled to the
// same total: 4 hits on a two-instruction line weigh as 2 on a one-
// instruction line.
func TestBodyPerInstruction(t *testing.T) {
	counts := &aggregate.StackCounts{
		Objects: []aggregate.Object{{Path: "prog", Binary: 0}},
		Stacks: []*aggregate.Stack{
			{Locs: []aggregate.Loc{{Obj: 0, Addr: 0x100}}, Count: 4},
			{Locs: []aggregate.Loc{{Obj: 0, Addr: 0x108}}, Count: 2},
		},
	}
	for _, tt := range []struct {
		perInst bool
		want    [2]uint64
	}{{false, [2]uint64{4, 2}}, {true, [2]uint64{3, 3}}} {
		p := StackProfiles(counts, []StackBinary{{Sym: twoInstLine{}, Code: fakeCode{}, CallCounts: CallCountsNone,
			BodyPerInstruction: tt.perInst}})[0]
		a := p.Functions["A"]
		got := [2]uint64{a.Body[sampleprof.LineLocation{LineOffset: 1}].Samples, a.Body[sampleprof.LineLocation{LineOffset: 2}].Samples}
		if got != tt.want {
			t.Errorf("per instruction %v: lines 1 and 2 have %v samples, want %v", tt.perInst, got, tt.want)
		}
	}
}
