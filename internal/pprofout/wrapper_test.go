package pprofout_test

import (
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/pprofout"
	"github.com/profgen/profgen/internal/symbolize"
)

// frameTable is a Symbolizer over fixed inline stacks.
type frameTable map[uint64][]symbolize.Frame

func (t frameTable) FramesOrSymbol(addr uint64, dst []symbolize.Frame) []symbolize.Frame {
	return append(dst[:0], t[addr]...)
}

// TestWrapperFolding: wrapper frames leave the stacks as in Go's
// profiler, inlined or not, unless they called a panic function; with
// KeepWrappers they stay.
func TestWrapperFolding(t *testing.T) {
	fr := func(name string, wrapper bool) symbolize.Frame {
		return symbolize.Frame{Func: name, Line: 10, StartLine: 1, Wrapper: wrapper}
	}
	syms := frameTable{
		0x10: {fr("main.(*T).M", false)},
		0x20: {fr("main.(*T).M-fm", true)},
		0x30: {fr("main.apply", false)},
		0x40: {fr("main.caller", false), fr("main.T.N", true), fr("main.(*T).N", false)}, // outermost first
		0x50: {fr("runtime.gopanic", false)},
	}
	tests := []struct {
		name string
		locs []uint64
		keep bool
		want string
	}{
		{"method value wrapper", []uint64{0x10, 0x20, 0x30}, false, "main.(*T).M < main.apply"},
		{"kept", []uint64{0x10, 0x20, 0x30}, true, "main.(*T).M < main.(*T).M-fm < main.apply"},
		{"wrapper as leaf", []uint64{0x20, 0x30}, false, "main.apply"},
		{"inlined wrapper", []uint64{0x40}, false, "main.(*T).N < main.caller"},
		{"wrapper calling panic", []uint64{0x50, 0x20, 0x30}, false, "runtime.gopanic < main.(*T).M-fm < main.apply"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			counts := &aggregate.StackCounts{Objects: []aggregate.Object{{Path: "prog", Binary: 0}}}
			s := &aggregate.Stack{Count: 1}
			for _, a := range tt.locs {
				s.Locs = append(s.Locs, aggregate.Loc{Obj: 0, Addr: a})
			}
			counts.Stacks = []*aggregate.Stack{s}
			p := pprofout.Build(counts, []pprofout.Binary{{Path: "prog", Symbolizer: syms, KeepWrappers: tt.keep}})
			if len(p.Sample) != 1 {
				t.Fatalf("%d samples, want 1", len(p.Sample))
			}
			var names []string
			for _, l := range p.Sample[0].Location {
				for _, ln := range l.Line {
					names = append(names, ln.Function.Name)
				}
			}
			if got := strings.Join(names, " < "); got != tt.want {
				t.Errorf("stack %q, want %q", got, tt.want)
			}
			if err := p.CheckValid(); err != nil {
				t.Error(err)
			}
		})
	}
}
