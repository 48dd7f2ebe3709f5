package instrprof

import (
	"reflect"
	"testing"
)

func rec(name string, hash uint64, counts []uint64, sites ...[]Value) *Record {
	r := &Record{Name: name, Hash: hash, Counts: counts}
	if len(sites) > 0 {
		r.Sites[ValueIndirectCall] = sites
	}
	return r
}

func TestAdd(t *testing.T) {
	tests := []struct {
		name        string
		adds        []*Record
		weights     []uint64
		inputs      []int // Origin.Input of each add; 0, 1, 2... when nil
		want        []*Record
		wantDropped int
	}{
		{name: "sum", adds: []*Record{rec("f", 1, []uint64{1, 2}), rec("f", 1, []uint64{3, 4})},
			want: []*Record{rec("f", 1, []uint64{4, 6})}},
		{name: "weights", adds: []*Record{rec("f", 1, []uint64{1}), rec("f", 1, []uint64{3})}, weights: []uint64{2, 3},
			want: []*Record{rec("f", 1, []uint64{11})}},
		{name: "clamped at MaxCount", adds: []*Record{rec("f", 1, []uint64{MaxCount - 1}), rec("f", 1, []uint64{3})},
			want: []*Record{rec("f", 1, []uint64{MaxCount})}},
		{name: "weight clamped", adds: []*Record{rec("f", 1, []uint64{1 << 62})}, weights: []uint64{8},
			want: []*Record{rec("f", 1, []uint64{MaxCount})}},
		{name: "other hash kept apart", adds: []*Record{rec("f", 1, []uint64{1}), rec("f", 2, []uint64{1, 1})},
			want: []*Record{rec("f", 1, []uint64{1}), rec("f", 2, []uint64{1, 1})}},
		{name: "counter mismatch keeps the most counters", adds: []*Record{rec("f", 1, []uint64{1}), rec("f", 1, []uint64{1, 1}), rec("f", 1, []uint64{2})},
			want: []*Record{rec("f", 1, []uint64{1, 1})}, wantDropped: 1},
		{name: "the most counters in any input order", adds: []*Record{rec("f", 1, []uint64{1, 1}), rec("f", 1, []uint64{1}), rec("f", 1, []uint64{2, 2})},
			inputs: []int{2, 1, 0}, want: []*Record{rec("f", 1, []uint64{3, 3})}, wantDropped: 1},
		{name: "pseudo hot wins", adds: []*Record{rec("f", 1, []uint64{PseudoWarm, 0}), rec("f", 1, []uint64{PseudoHot, 0})},
			want: []*Record{rec("f", 1, []uint64{PseudoHot, 0})}},
		{name: "pseudo and real do not merge: real counts kept", adds: []*Record{rec("f", 1, []uint64{PseudoWarm, 0}), rec("f", 1, []uint64{4, 5})},
			want: []*Record{rec("f", 1, []uint64{4, 5})}, wantDropped: 1},
		{name: "values by count then value",
			adds: []*Record{rec("f", 1, []uint64{1}, []Value{{Value: 9, Count: 1}, {Value: 5, Count: 1}}), rec("f", 1, []uint64{1}, []Value{{Value: 7, Count: 4}})},
			want: []*Record{rec("f", 1, []uint64{2}, []Value{{Value: 7, Count: 4}, {Value: 5, Count: 1}, {Value: 9, Count: 1}})}},
	}
	// Each case runs with Add, and with AddNear given what the add before
	// returned: the right record or another name's and hash's.
	for _, tt := range tests {
		for _, mode := range []string{"Add", "AddNear"} {
			t.Run(tt.name+"/"+mode, func(t *testing.T) {
				p := NewProfile()
				var near *Func
				for i, r := range tt.adds {
					w, in := uint64(1), i
					if tt.weights != nil {
						w = tt.weights[i]
					}
					if tt.inputs != nil {
						in = tt.inputs[i]
					}
					if mode == "Add" {
						p.Add(r, 0, w, Origin{File: "in", Input: in})
					} else {
						near = p.AddNear(r, 0, w, Origin{File: "in", Input: in}, near)
					}
				}
				checkAdded(t, p, tt.want, tt.wantDropped)
			})
		}
	}
}

func checkAdded(t *testing.T, p *Profile, want []*Record, wantDropped int) {
	t.Helper()
	if dropped := p.Resolve(); len(dropped) != wantDropped {
		t.Errorf("%d records dropped, want %d", len(dropped), wantDropped)
	}
	got := p.Funcs()
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i, w := range want {
		if !reflect.DeepEqual(got[i].Record, *w) {
			t.Errorf("record %d = %+v, want %+v", i, got[i].Record, *w)
		}
	}
}

// TestOrderIndependent merges the same records split across two partial
// profiles in different ways and orders, as the merge workers do.
func TestOrderIndependent(t *testing.T) {
	recs := []*Record{
		rec("a", 1, []uint64{1, 2}, []Value{{Value: 3, Count: 1}, {Value: 4, Count: 1}}),
		rec("a", 1, []uint64{5, 0}, []Value{{Value: 4, Count: 2}}),
		rec("a", 1, []uint64{0, 7}, []Value{{Value: 8, Count: 2}, {Value: 3, Count: 1}}),
		rec("b", 9, []uint64{1}),
	}
	build := func(order []int, split int) []*Func {
		parts := []*Profile{NewProfile(), NewProfile()}
		for i, j := range order {
			parts[min(i/split, 1)].Add(recs[j], 0, 1, Origin{})
		}
		all := NewProfile()
		all.AddProfile(parts[0])
		all.AddProfile(parts[1])
		return all.Funcs()
	}
	want := build([]int{0, 1, 2, 3}, 4)
	for _, order := range [][]int{{3, 2, 1, 0}, {1, 3, 0, 2}, {2, 0, 3, 1}} {
		for split := 1; split <= 4; split++ {
			got := build(order, split)
			for i := range want {
				if !reflect.DeepEqual(got[i].Record, want[i].Record) {
					t.Errorf("order %v split %d: %+v, want %+v", order, split, got[i].Record, want[i].Record)
				}
			}
		}
	}
}

// TestManyHashes: one name with 200k CFG hashes (a hostile raw) merges in
// linear time, each hash kept apart, and DropZero keeps the index right.
func TestManyHashes(t *testing.T) {
	const n = 200000
	p := NewProfile()
	for round := range 2 {
		for h := range uint64(n) {
			if err := p.Add(rec("f", h, []uint64{h % 2}), 0, 1, Origin{}); err != nil {
				t.Fatal(err)
			}
		}
		if p.Len() != n {
			t.Fatalf("round %d: %d records, want %d", round, p.Len(), n)
		}
	}
	if f := p.lookup(NameRef("f"), 7); f == nil || f.Counts[0] != 2 {
		t.Fatalf("hash 7: %+v, want counts [2]", f)
	}
	p.DropZero()
	if p.Len() != n/2 || p.lookup(NameRef("f"), 6) != nil || p.lookup(NameRef("f"), 7) == nil {
		t.Fatalf("after DropZero: %d records, hash 6 still there or hash 7 gone", p.Len())
	}
	if err := p.Add(rec("f", 6, []uint64{1}), 0, 1, Origin{}); err != nil || p.lookup(NameRef("f"), 6) == nil {
		t.Fatalf("re-adding a dropped hash: %v", err)
	}
}
