package pprofout_test

import (
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/pprofout"
)

// TestOmitGoexit: with OmitGoexit, the binary's runtime.goexit frames
// leave the stacks as Go's profiler leaves them out (a sample in goexit
// alone keeps its weight with no location); another DSO's frame of that
// name stays.
func TestOmitGoexit(t *testing.T) {
	syms := frameTable{
		0x10: {{Func: "main.work", Line: 10, StartLine: 1}},
		0x30: {{Func: "runtime.main", Line: 20, StartLine: 1}},
		0x50: {{Func: "runtime.goexit", Line: 30, StartLine: 30}},
		0x70: {{Func: "runtime.goexit.abi0"}}, // its ELF symbol, without pclntab or DWARF
	}
	const prog, other = 0, 1
	objects := []aggregate.Object{{Path: "prog", Binary: 0}, {Path: "other.so", Binary: -1}}
	loc := func(obj int32, addr uint64) aggregate.Loc { return aggregate.Loc{Obj: obj, Addr: addr} }
	tests := []struct {
		name string
		locs []aggregate.Loc
		omit bool
		want []string
	}{
		{"root frame", []aggregate.Loc{loc(prog, 0x10), loc(prog, 0x30), loc(prog, 0x50)}, true, []string{"main.work", "runtime.main"}},
		{"kept", []aggregate.Loc{loc(prog, 0x10), loc(prog, 0x30), loc(prog, 0x50)}, false, []string{"main.work", "runtime.main", "runtime.goexit"}},
		{"named by its ELF symbol", []aggregate.Loc{loc(prog, 0x30), loc(prog, 0x70)}, true, []string{"runtime.main"}},
		{"goexit alone", []aggregate.Loc{loc(prog, 0x50)}, true, nil},
		{"another DSO", []aggregate.Loc{loc(prog, 0x10), loc(other, 0x50)}, true, []string{"main.work", "runtime.goexit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			counts := &aggregate.StackCounts{Objects: objects, Symbols: map[aggregate.Loc]string{loc(other, 0x50): "runtime.goexit"},
				Stacks: []*aggregate.Stack{{Locs: tt.locs, Count: 3}}}
			p := pprofout.Build(counts, []pprofout.Binary{{Path: "prog", Symbolizer: syms, OmitGoexit: tt.omit}})
			if got := funcNames(p.Sample[0].Location); !slices.Equal(got, tt.want) {
				t.Errorf("stack %q, want %q", got, tt.want)
			}
			if p.Sample[0].Value[0] != 3 {
				t.Errorf("weight %d, want 3", p.Sample[0].Value[0])
			}
			if err := p.CheckValid(); err != nil {
				t.Error(err)
			}
		})
	}
}
