package generate

import (
	"fmt"
	"io"
	"math/rand"
	"sort"
	"strings"

	"github.com/profgen/profgen/internal/record"
	"golang.org/x/arch/x86/x86asm"
)

// synthCounters makes reproducible pseudo-random counters over the code of
// a binary: fall-through ranges that end at control-flow instructions and
// branches to the targets of direct jumps and calls.
func synthCounters(c *testCode, seed int64) Counters {
	rng := rand.New(rand.NewSource(seed))
	out := Counters{Ranges: map[Range]uint64{}, Branches: map[record.Branch]uint64{}}
	var blockStart uint64
	inBlock := false
	for i, a := range c.addrs {
		if i > 0 && c.addrs[i-1]+c.sizes[c.addrs[i-1]] != a {
			inBlock = false // a gap: a new symbol
		}
		if !inBlock || rng.Intn(4) == 0 {
			blockStart, inBlock = a, true
		}
		in := c.insts[a]
		if !isControlFlow(in) {
			continue
		}
		if rng.Intn(3) != 0 {
			out.Ranges[Range{Start: blockStart, End: a}] += uint64(1 + rng.Intn(1000))
		}
		if t, ok := directTarget(a, in); ok && rng.Intn(4) != 0 {
			if _, code := c.sizes[t]; code {
				out.Branches[record.Branch{From: a, To: t}] += uint64(1 + rng.Intn(500))
			}
		}
		if in.Op != x86asm.JMP && in.Op != x86asm.RET && rng.Intn(2) == 0 {
			continue // a not-taken conditional branch: the range goes on
		}
		inBlock = false
	}
	return out
}

func isControlFlow(in x86asm.Inst) bool {
	switch in.Op {
	case x86asm.CALL, x86asm.RET, x86asm.JMP:
		return true
	}
	return strings.HasPrefix(in.Op.String(), "J") || strings.HasPrefix(in.Op.String(), "LOOP")
}

func directTarget(addr uint64, in x86asm.Inst) (uint64, bool) {
	if rel, ok := in.Args[0].(x86asm.Rel); ok {
		return uint64(int64(addr) + int64(in.Len) + int64(rel)), true
	}
	return 0, false
}

// writeUnsymbolized writes c in llvm-profgen's unsymbolized profile format,
// addresses as offsets from base.
func writeUnsymbolized(w io.Writer, c Counters, base uint64) {
	rs := make([]Range, 0, len(c.Ranges))
	for r := range c.Ranges {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Start != rs[j].Start {
			return rs[i].Start < rs[j].Start
		}
		return rs[i].End < rs[j].End
	})
	fmt.Fprintln(w, len(rs))
	for _, r := range rs {
		fmt.Fprintf(w, "%x-%x:%d\n", r.Start-base, r.End-base, c.Ranges[r])
	}
	bs := make([]record.Branch, 0, len(c.Branches))
	for b := range c.Branches {
		bs = append(bs, b)
	}
	sort.Slice(bs, func(i, j int) bool {
		if bs[i].From != bs[j].From {
			return bs[i].From < bs[j].From
		}
		return bs[i].To < bs[j].To
	})
	fmt.Fprintln(w, len(bs))
	for _, b := range bs {
		fmt.Fprintf(w, "%x->%x:%d\n", b.From-base, b.To-base, c.Branches[b])
	}
}
