package aggregate

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestRewrite checks Rewrite against keying and sorting every stack anew,
// on stacks that fix shortens, lengthens, leaves alone and makes equal to
// one another and to stacks it leaves alone.
func TestRewrite(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	randLocs := func() []Loc {
		locs := make([]Loc, 1+r.IntN(4))
		for i := range locs {
			locs[i] = Loc{Obj: int32(r.IntN(2)), Addr: uint64(r.IntN(4)) << (7 * r.IntN(3))}
		}
		return locs
	}
	for round := range 100 {
		merged := map[string]*Stack{}
		for range r.IntN(60) {
			locs := randLocs()
			s := merged[string(AppendKey(nil, locs))]
			if s == nil {
				s = &Stack{Locs: locs}
				merged[string(AppendKey(nil, locs))] = s
			}
			s.Count += uint64(1 + r.IntN(5))
			s.Period += uint64(r.IntN(1000))
		}
		stacks := sortedStacks(merged)
		fixes := make([][]Loc, len(stacks))
		for i := range fixes {
			switch r.IntN(4) {
			case 0:
				fixes[i] = randLocs()
			case 1:
				if len(stacks) > 0 {
					fixes[i] = stacks[r.IntN(len(stacks))].Locs
				}
			}
		}
		got := &StackCounts{Stacks: stacks}
		got.Rewrite(func(i int, s *Stack) []Loc {
			if s != stacks[i] {
				t.Fatalf("round %d: fix got stack %d out of order", round, i)
			}
			return fixes[i]
		})
		if want := rewriteAll(stacks, fixes); !reflect.DeepEqual(got.Stacks, want) {
			t.Fatalf("round %d: got %v, want %v", round, got.Stacks, want)
		}
	}
}

// rewriteAll is Rewrite by keying every stack anew.
func rewriteAll(stacks []*Stack, fixes [][]Loc) []*Stack {
	merged := map[string]*Stack{}
	for i, s := range stacks {
		locs := s.Locs
		if fixes[i] != nil {
			locs = fixes[i]
		}
		key := string(AppendKey(nil, locs))
		if m := merged[key]; m != nil {
			m.Count += s.Count
			m.Period += s.Period
			continue
		}
		merged[key] = &Stack{Locs: locs, Count: s.Count, Period: s.Period}
	}
	return sortedStacks(merged)
}
