package aggregate

import (
	"maps"
	"testing"

	"github.com/profgen/profgen/internal/record"
)

// fakeCode: every address in [lo, hi) is code; uncond lists the
// unconditional branches.
type fakeCode struct {
	lo, hi uint64
	uncond []uint64
}

func (f fakeCode) IsCode(a uint64) bool { return a >= f.lo && a < f.hi }

func (f fakeCode) CrossesUncondBranch(s, e uint64) bool {
	for _, u := range f.uncond {
		if u >= s && u < e {
			return true
		}
	}
	return false
}

var code = fakeCode{lo: 0x401100, hi: 0x401160, uncond: []uint64{0x40112c, 0x401142, 0x401151}}

func br(pairs ...uint64) []record.Branch {
	var bs []record.Branch
	for i := 0; i+1 < len(pairs); i += 2 {
		bs = append(bs, record.Branch{From: pairs[i], To: pairs[i+1]})
	}
	return bs
}

func TestAggregate(t *testing.T) {
	loop := br(0x40112c, 0x401147, 0x401142, 0x401110, 0x401151, 0x401140, 0x40112c, 0x401147, 0x401142, 0x401110)
	tests := []struct {
		name     string
		samples  [][]record.Branch
		delta    uint64
		count    uint64
		ranges   map[Range]uint64
		branches map[record.Branch]uint64
		stats    Stats
	}{
		{
			name:    "loop twice (llvm-profgen-19 result)",
			samples: [][]record.Branch{loop, loop}, count: 1,
			ranges:   map[Range]uint64{{0x401110, 0x40112c}: 4, {0x401140, 0x401142}: 2, {0x401147, 0x401151}: 2},
			branches: map[record.Branch]uint64{{From: 0x40112c, To: 0x401147}: 4, {From: 0x401142, To: 0x401110}: 4, {From: 0x401151, To: 0x401140}: 2},
			stats:    Stats{Samples: 2, Entries: 10, Pairs: 8},
		},
		{
			name:    "aslr delta and repeat count",
			samples: [][]record.Branch{br(0x7000151, 0x7000140, 0x700012c, 0x7000147)}, delta: aslrDelta, count: 3,
			ranges:   map[Range]uint64{{0x401147, 0x401151}: 3},
			branches: map[record.Branch]uint64{{From: 0x401151, To: 0x401140}: 3, {From: 0x40112c, To: 0x401147}: 3},
			stats:    Stats{Samples: 3, Entries: 6, Pairs: 3},
		},
		{
			name:    "external source kept, external target dropped, ext->ext dropped",
			samples: [][]record.Branch{br(0x401151, 0x7f00, 0x7f10, 0x7f20, 0x7f0000001000, 0x401110)}, count: 1,
			ranges:   map[Range]uint64{},
			branches: map[record.Branch]uint64{{From: ExternalAddr, To: 0x401110}: 1},
			stats:    Stats{Samples: 1, Entries: 2, ExternalEnds: 2, DroppedExtExt: 1, InvalidRanges: 1, Pairs: 1},
		},
		{
			name:    "range start after end, range crossing a call",
			samples: [][]record.Branch{br(0x401120, 0x401110, 0x401100, 0x401130, 0x401140, 0x401110)}, count: 1,
			ranges:   map[Range]uint64{},
			branches: map[record.Branch]uint64{{From: 0x401120, To: 0x401110}: 1, {From: 0x401100, To: 0x401130}: 1, {From: 0x401140, To: 0x401110}: 1},
			stats:    Stats{Samples: 1, Entries: 3, InvalidRanges: 2, Pairs: 2},
		},
		{
			name:    "all external",
			samples: [][]record.Branch{br(0x10, 0x20), nil}, count: 1,
			ranges: map[Range]uint64{}, branches: map[record.Branch]uint64{},
			stats: Stats{NoBranches: 2, DroppedExtExt: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := New(code)
			for _, s := range tt.samples {
				a.Add(s, tt.delta, tt.count)
			}
			c := a.Counters()
			if !maps.Equal(c.Ranges, tt.ranges) {
				t.Errorf("ranges %v, want %v", c.Ranges, tt.ranges)
			}
			if !maps.Equal(c.Branches, tt.branches) {
				t.Errorf("branches %v, want %v", c.Branches, tt.branches)
			}
			if a.Stats != tt.stats {
				t.Errorf("stats %+v, want %+v", a.Stats, tt.stats)
			}
		})
	}
}

// TestUnusedPairs: pairs of consecutive branches that give no range are
// kept for llvm-profgen's range warnings, with ExternalAddr for an end
// outside the code; pairs with both ends outside are only counted.
func TestUnusedPairs(t *testing.T) {
	a := New(code)
	// newest first: ext->0x401110, 0x401120->ext, 0x401100->0x401130,
	// 0x7f00->0x7f10 (dropped), 0x401140->0x401110
	a.Add(br(0x7f00, 0x401110, 0x401120, 0x7f20, 0x401100, 0x401130, 0x7f00, 0x7f10, 0x401140, 0x401110), 0, 2)
	c := a.Counters()
	want := map[Range]uint64{
		{ExternalAddr, ExternalAddr}: 0, // ext target, ext source: skipped
		{0x401130, 0x401120}:         2, // start after end
		{0x401110, 0x401100}:         2, // start after end
	}
	delete(want, Range{ExternalAddr, ExternalAddr})
	if !maps.Equal(c.Unused, want) {
		t.Errorf("unused %v, want %v", c.Unused, want)
	}
	if a.Stats.Pairs != 6 {
		t.Errorf("pairs %d, want 6", a.Stats.Pairs)
	}
}

// TestLeadingIPAndPeriod: --leading-ip-only counts [IP, IP] once per
// sample; --sample-period scales each sample, divided by its branches
// less one without --leading-ip-only.
func TestLeadingIPAndPeriod(t *testing.T) {
	ip := NewWithOptions(code, Options{LeadingIPOnly: true, SamplePeriod: 10})
	ip.Add(br(0x401120, 0x401120), 0, 1)
	ip.Add(br(0x401120, 0x401120), 0, 2)
	ip.Add(br(0x7f00, 0x7f00), 0, 1)
	if c := ip.Counters(); !maps.Equal(c.Ranges, map[Range]uint64{{0x401120, 0x401120}: 30}) || len(c.Branches) != 0 {
		t.Errorf("leading ip: ranges %v branches %v", c.Ranges, c.Branches)
	}
	lbr := NewWithOptions(code, Options{SamplePeriod: 10})
	// three branches, one of them external to external: 10 / (2-1)
	lbr.Add(br(0x401151, 0x401140, 0x7f00, 0x7f10, 0x40112c, 0x401147), 0, 1)
	// three branches: 10 / 2, twice
	lbr.Add(br(0x40112c, 0x401147, 0x401142, 0x401110, 0x401151, 0x401140), 0, 1)
	lbr.Add(br(0x40112c, 0x401147, 0x401142, 0x401110, 0x401151, 0x401140), 0, 1)
	c := lbr.Counters()
	if got := c.Branches[record.Branch{From: 0x401151, To: 0x401140}]; got != 20 {
		t.Errorf("scaled count %d, want 20", got)
	}
}

func BenchmarkAdd(b *testing.B) {
	var stack []record.Branch
	for i := uint64(0); i < 32; i++ {
		stack = append(stack, record.Branch{From: 0x401100 + i, To: 0x401140 + i})
	}
	a := New(code)
	for i := 0; b.Loop(); i++ {
		stack[0].From = 0x401100 + uint64(i%64)
		a.Add(stack, 0, 1)
	}
	a.Counters()
}

var runtimeBase, preferredBase uint64 = 0x7000000, 0x401000

var aslrDelta = preferredBase - runtimeBase

// TestFlushKeepsCounts: counting in several rounds (a small pending table)
// gives the counts of one round.
func TestFlushKeepsCounts(t *testing.T) {
	stacks := [][]record.Branch{
		br(0x40112c, 0x401147, 0x401142, 0x401110),
		br(0x401151, 0x401140, 0x40112c, 0x401147),
		br(0x7f10, 0x401110, 0x401142, 0x401110, 0x401151, 0x401140),
	}
	one, many := New(code), New(code)
	many.limit = 40
	for i := 0; i < 100; i++ {
		s := stacks[i%len(stacks)]
		one.Add(s, 0, uint64(i%3+1))
		many.Add(s, 0, uint64(i%3+1))
	}
	c1, c2 := one.Counters(), many.Counters()
	if !maps.Equal(c1.Ranges, c2.Ranges) || !maps.Equal(c1.Branches, c2.Branches) || one.Stats != many.Stats {
		t.Errorf("one round %v %v %+v; many rounds %v %v %+v", c1.Ranges, c1.Branches, one.Stats, c2.Ranges, c2.Branches, many.Stats)
	}
}
