package pprofout_test

import (
	"testing"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/pprofout"
)

// TestFoldKernel: with FoldKernel, the kernel and vDSO frames above the
// binary's frames leave the stack (Go's profiler names the user PC);
// stacks without the binary's frames, or with another DSO's frame first,
// stay as recorded.
func TestFoldKernel(t *testing.T) {
	syms := frameTable{
		0x10: {{Func: "main.work", Line: 10, StartLine: 1}},
		0x30: {{Func: "main.main", Line: 20, StartLine: 1}},
	}
	const prog, kernel, vdso, libc = 0, 1, 2, 3
	objects := []aggregate.Object{
		{Path: "prog", Binary: 0}, {Path: aggregate.KernelDSO, Binary: -1, Kernel: true},
		{Path: "[vdso]", Binary: -1}, {Path: "libc.so.6", Binary: -1},
	}
	loc := func(obj int32, addr uint64) aggregate.Loc { return aggregate.Loc{Obj: obj, Addr: addr} }
	tests := []struct {
		name string
		locs []aggregate.Loc
		fold bool
		want int // locations left
	}{
		{"kernel above the binary", []aggregate.Loc{loc(kernel, 0x100), loc(kernel, 0x200), loc(prog, 0x10), loc(prog, 0x30)}, true, 2},
		{"kept without FoldKernel", []aggregate.Loc{loc(kernel, 0x100), loc(kernel, 0x200), loc(prog, 0x10), loc(prog, 0x30)}, false, 4},
		{"vdso", []aggregate.Loc{loc(vdso, 0x100), loc(prog, 0x10)}, true, 1},
		{"kernel only", []aggregate.Loc{loc(kernel, 0x100), loc(kernel, 0x200)}, true, 2},
		{"another DSO first", []aggregate.Loc{loc(kernel, 0x100), loc(libc, 0x300), loc(prog, 0x10)}, true, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			counts := &aggregate.StackCounts{Objects: objects, Stacks: []*aggregate.Stack{{Locs: tt.locs, Count: 1}}}
			p := pprofout.Build(counts, []pprofout.Binary{{Path: "prog", Symbolizer: syms, FoldKernel: tt.fold}})
			if got := len(p.Sample[0].Location); got != tt.want {
				t.Errorf("%d locations, want %d", got, tt.want)
			}
			if err := p.CheckValid(); err != nil {
				t.Error(err)
			}
		})
	}
}
