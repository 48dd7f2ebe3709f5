package unwind

import (
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	bin "github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/record"
)

// tailCode: main [0x100, 0x120) calls foo at 0x108; foo [0x200, 0x220)
// tail-calls bar at 0x210 (and baz at 0x214); bar [0x300, 0x320)
// tail-calls baz at 0x310; baz [0x400, 0x420).
type tailCode map[uint64]insn.Kind

func (c tailCode) Inst(a uint64) (bin.Inst, bool) {
	k, ok := c[a]
	if !ok && a >= 0x100 && a < 0x420 && a%4 == 0 {
		return bin.Inst{Addr: a, Size: 4}, true
	}
	return bin.Inst{Addr: a, Size: 4, Kind: k}, ok
}
func (c tailCode) PrevInst(a uint64) (bin.Inst, bool)   { return c.Inst(a - 4) }
func (c tailCode) NextInst(a uint64) (uint64, bool)     { return a + 4, true }
func (c tailCode) CrossesUncondBranch(s, e uint64) bool { return false }
func (tailFuncs) FuncAt(a uint64) (uint64, uint64, bool) {
	return a &^ 0xff, a >> 8, a >= 0x100 && a < 0x420
}

type tailFuncs struct{}

func TestMissingFrames(t *testing.T) {
	code := tailCode{0x108: insn.Call, 0x210: insn.Jump, 0x214: insn.Jump, 0x310: insn.Jump}
	branches := func(pairs ...uint64) []*aggregate.Counters {
		c := aggregate.NewCounters()
		for i := 0; i+1 < len(pairs); i += 2 {
			c.Branches[record.Branch{From: pairs[i], To: pairs[i+1]}]++
		}
		return []*aggregate.Counters{nil, c}
	}
	chain := branches(0x108, 0x200, 0x210, 0x300, 0x310, 0x400)
	tests := []struct {
		name     string
		counters []*aggregate.Counters
		ctx      []uint64
		want     []uint64
	}{
		{"unique chain of tail calls", chain, []uint64{0x108, 0x404}, []uint64{0x108, 0x210, 0x310, 0x404}},
		{"the call reaches the leaf", chain, []uint64{0x108, 0x204}, []uint64{0x108, 0x204}},
		{"one frame", chain, []uint64{0x404}, []uint64{0x404}},
		{"two chains: nothing inferred", branches(0x108, 0x200, 0x210, 0x300, 0x310, 0x400, 0x214, 0x400), []uint64{0x108, 0x404}, []uint64{0x108, 0x404}},
		{"no tail call seen", branches(0x108, 0x200), []uint64{0x108, 0x404}, []uint64{0x108, 0x404}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMissingFrames(code, tailFuncs{}, tt.counters, -1)
			if got := m.Infer(slices.Clone(tt.ctx)); !slices.Equal(got, tt.want) {
				t.Errorf("Infer(%x) = %x, want %x", tt.ctx, got, tt.want)
			}
		})
	}
}
