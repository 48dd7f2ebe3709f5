package pprofout_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/pprofout"
)

// TestUnknownFrameAddressOnly: a frame perf placed in no mapping is a
// location with its address alone (no mapping, no line), as perf report's
// [unknown]; its caller keeps the call edge to it. The profile survives
// a write and a parse.
func TestUnknownFrameAddressOnly(t *testing.T) {
	syms := frameTable{0x30: {{Func: "main.main", Line: 20, StartLine: 1}}}
	objects := []aggregate.Object{{Path: "prog", Binary: 0}, {Path: aggregate.UnknownDSO, Binary: -1}}
	counts := &aggregate.StackCounts{Objects: objects, Stacks: []*aggregate.Stack{
		{Locs: []aggregate.Loc{{Obj: 1, Addr: 0x7f0000001006}, {Obj: 0, Addr: 0x30}}, Count: 4},
	}}
	var buf bytes.Buffer
	if err := pprofout.Write(&buf, pprofout.Build(counts, []pprofout.Binary{{Path: "prog", Symbolizer: syms}})); err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	locs := p.Sample[0].Location
	if len(locs) != 2 {
		t.Fatalf("%d locations, want 2", len(locs))
	}
	if l := locs[0]; l.Address != 0x7f0000001006 || l.Mapping != nil || len(l.Line) != 0 {
		t.Errorf("leaf: address %#x, mapping %v, lines %v; want the address alone", l.Address, l.Mapping, l.Line)
	}
	if got := funcNames(locs[1:]); !slices.Equal(got, []string{"main.main"}) {
		t.Errorf("callers %q", got)
	}
}

// funcNames names each location by its innermost function.
func funcNames(locs []*profile.Location) []string {
	var out []string
	for _, l := range locs {
		out = append(out, l.Line[0].Function.Name)
	}
	return out
}
