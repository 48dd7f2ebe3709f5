package unwind

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	bin "github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/record"
)

// A fake binary: 4-byte instructions in main [0x100, 0x120) and foo
// [0x200, 0x220); foo's 0x210 and 0x214 come from an inlined callee.
//
//	main: 100 101 104 ... 108 call foo, 10c, 110, 114 jmp 100, 118, 11c ret
//	foo:  200 ... 20c jcc 210, 210 (inlined) 214 (inlined), 218, 21c ret
type fakeCode map[uint64]insn.Kind

var code = func() fakeCode {
	c := fakeCode{}
	for a := uint64(0x100); a < 0x120; a += 4 {
		c[a] = insn.Other
	}
	for a := uint64(0x200); a < 0x220; a += 4 {
		c[a] = insn.Other
	}
	c[0x108], c[0x114], c[0x11c] = insn.Call, insn.Jump, insn.Return
	c[0x20c], c[0x21c] = insn.CondBranch, insn.Return
	return c
}()

func (c fakeCode) addrs() []uint64 { return slices.Sorted(maps.Keys(c)) }

func (c fakeCode) Inst(a uint64) (bin.Inst, bool) {
	k, ok := c[a]
	return bin.Inst{Addr: a, Size: 4, Kind: k}, ok
}

func (c fakeCode) PrevInst(a uint64) (bin.Inst, bool) {
	as := c.addrs()
	i, _ := slices.BinarySearch(as, a)
	if i == 0 {
		return bin.Inst{}, false
	}
	return c.Inst(as[i-1])
}

func (c fakeCode) NextInst(a uint64) (uint64, bool) {
	as := c.addrs()
	i, found := slices.BinarySearch(as, a)
	if found {
		i++
	}
	if i >= len(as) {
		return 0, false
	}
	return as[i], true
}

func (c fakeCode) CrossesUncondBranch(s, e uint64) bool {
	for a := s; a < e; a++ {
		if k, ok := c[a]; ok && k.IsUncondBranch() {
			return true
		}
	}
	return false
}

type fakeSyms struct{}

func inlineContext(a uint64) int {
	switch {
	case a >= 0x210 && a < 0x218:
		return 2 // foo @ inlined callee
	case a >= 0x100 && a < 0x220:
		return 1
	}
	return 0
}

func (fakeSyms) InlineRun(a uint64) (uint64, uint32) {
	for _, start := range []uint64{0x218, 0x210, 0x200, 0x100} {
		if a >= start && inlineContext(a) != 0 {
			return start, uint32(inlineContext(a))
		}
	}
	return a, 0
}

func (fakeSyms) IsFuncStart(a uint64) bool { return a == 0x100 || a == 0x200 }

const ext = 0x7f0000001000 // an address outside the binary

func br(pairs ...uint64) []record.Branch {
	var bs []record.Branch
	for i := 0; i+1 < len(pairs); i += 2 {
		bs = append(bs, record.Branch{From: pairs[i], To: pairs[i+1]})
	}
	return bs
}

// dump renders contexts as `[a @ b] ranges; branches` lines.
func dump(ctxs []Context) string {
	var b strings.Builder
	for _, c := range ctxs {
		var as []string
		for _, a := range c.Addrs {
			as = append(as, fmt.Sprintf("%x", a))
		}
		fmt.Fprintf(&b, "[%s]", strings.Join(as, " @ "))
		for _, r := range slices.SortedFunc(maps.Keys(c.Counters.Ranges), func(x, y aggregate.Range) int { return int(x.Start) - int(y.Start) }) {
			fmt.Fprintf(&b, " %x-%x:%d", r.Start, r.End, c.Counters.Ranges[r])
		}
		for _, r := range slices.SortedFunc(maps.Keys(c.Counters.Branches), func(x, y record.Branch) int { return int(x.From) - int(y.From) }) {
			fmt.Fprintf(&b, " %x->%x:%d", r.From, r.To, c.Counters.Branches[r])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestUnwind(t *testing.T) {
	tests := []struct {
		name   string
		frames []uint64
		lbr    []record.Branch
		want   string
		stats  Stats
	}{
		{
			name:   "call: the caller's frame is popped",
			frames: []uint64{0x210, 0x10c},
			lbr:    br(0x20c, 0x210, 0x108, 0x200),
			want:   "[108] 108->200:2\n[108 @ 200] 200-20c:2\n[108 @ 20c] 20c->210:2\n",
			stats:  Stats{Samples: 2, Unwound: 2, Branches: 4},
		},
		{
			name:   "return: the callee's frame is pushed, ranges split by inlining",
			frames: []uint64{0x110},
			lbr:    br(0x21c, 0x10c, 0x20c, 0x210),
			want:   "[108 @ 20c] 20c->210:2\n[108 @ 210] 210-214:2\n[108 @ 218] 218-21c:2\n[108 @ 21c] 21c->10c:2\n",
			stats:  Stats{Samples: 2, Unwound: 2, Branches: 4},
		},
		{
			name:   "leaf in a prolog: dropped",
			frames: []uint64{0x204, 0x10c},
			lbr:    br(0x108, 0x200),
			stats:  Stats{Samples: 2, PrologEpilog: 2},
		},
		{
			name:   "leaf before a return (epilog): dropped",
			frames: []uint64{0x218, 0x10c},
			lbr:    br(0x108, 0x200),
			stats:  Stats{Samples: 2, PrologEpilog: 2},
		},
		{
			name:   "callback from outside: the branch counts in the empty context",
			frames: []uint64{0x208, ext + 0x40, 0x10c},
			lbr:    br(ext, 0x200),
			want:   "[] 1->200:2\n",
			stats:  Stats{Samples: 2, Unwound: 2, Branches: 2},
		},
		{
			name:   "a range that cannot have run (crossing the jmp) stops the unwinding",
			frames: []uint64{0x210, 0x10c},
			lbr:    br(0x20c, 0x210, 0x11c, 0x100),
			want:   "[108 @ 20c] 20c->210:2\n[11c] 11c->100:2\n",
			stats:  Stats{Samples: 2, Unwound: 2, Branches: 4, InvalidRanges: 2},
		},
		{
			name:   "a return address that follows no call cuts the stack",
			frames: []uint64{0x210, 0x110, 0x10c},
			lbr:    br(0x20c, 0x210),
			want:   "[20c] 20c->210:2\n",
			stats:  Stats{Samples: 2, Unwound: 2, Branches: 2, CutStacks: 2},
		},
		{
			name:   "no branch in the binary",
			frames: []uint64{0x210, 0x10c},
			lbr:    br(ext, ext+8),
			stats:  Stats{Samples: 2, NoBranches: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keys := NewAddressContexts(-1, -1)
			u := New(code, fakeSyms{}, keys, Options{})
			u.Add(tt.frames, tt.lbr, 1)
			u.Add(tt.frames, tt.lbr, 1)
			if got := dump(keys.Contexts(u.Counters())); got != tt.want {
				t.Errorf("contexts:\n%s\nwant:\n%s", got, tt.want)
			}
			if u.Stats != tt.stats {
				t.Errorf("stats %+v, want %+v", u.Stats, tt.stats)
			}
		})
	}
}

// TestCallerContexts: for pseudo-probe binaries, counters go to the
// caller's context, unsplit.
func TestCallerContexts(t *testing.T) {
	keys := NewAddressContexts(-1, -1)
	u := New(code, fakeSyms{}, keys, Options{CallerContexts: true})
	u.Add([]uint64{0x110}, br(0x21c, 0x10c, 0x20c, 0x210), 1)
	want := "[108] 210-21c:1 20c->210:1 21c->10c:1\n"
	if got := dump(keys.Contexts(u.Counters())); got != want {
		t.Errorf("contexts:\n%s\nwant:\n%s", got, want)
	}
}

// TestAddressContextsCompress: address contexts are compressed and
// trimmed before they are told apart, so that contexts differing only in
// repeats share their counters (llvm-profgen's AddressStack).
func TestAddressContextsCompress(t *testing.T) {
	for _, tt := range []struct {
		compress, depth int
		a, b            []uint64
		same            bool
		want            []uint64
	}{
		{-1, -1, []uint64{1, 2, 2, 3}, []uint64{1, 2, 3}, true, []uint64{1, 2, 3}},
		{0, -1, []uint64{1, 2, 2, 3}, []uint64{1, 2, 3}, false, []uint64{1, 2, 2, 3}},
		{-1, 1, []uint64{4, 3}, []uint64{5, 3}, true, []uint64{3}},
		{-1, 2, []uint64{4, 3}, []uint64{5, 3}, false, []uint64{4, 3}},
	} {
		k := NewAddressContexts(tt.compress, tt.depth)
		ia, ib := k.Key(0, tt.a), k.Key(0, tt.b)
		if (ia == ib) != tt.same {
			t.Errorf("compress %d, depth %d: %x and %x share an id: %v, want %v", tt.compress, tt.depth, tt.a, tt.b, ia == ib, tt.same)
		}
		if !slices.Equal(k.addrs[ia], tt.want) {
			t.Errorf("compress %d, depth %d: %x keyed as %x, want %x", tt.compress, tt.depth, tt.a, k.addrs[ia], tt.want)
		}
	}
}
