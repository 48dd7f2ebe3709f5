package stackgen_test

import (
	"bytes"
	"testing"

	"github.com/profgen/profgen/internal/callstack"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/stackgen"
)

// fakeSym symbolizes from a table.
type fakeSym map[uint64][]stackgen.Frame

func (f fakeSym) Frames(addr uint64) []stackgen.Frame { return f[addr] }

func TestGenerateTable(t *testing.T) {
	// main (start 10) calls work at line 12 (addr 0x20); work (start 30)
	// has helper (start 50) inlined at line 33; lib is another DSO.
	sym := fakeSym{
		0x10: {{Func: "work", Line: 31, StartLine: 30}},
		0x11: {{Func: "work", Line: 33, StartLine: 30}, {Func: "helper", Line: 52, StartLine: 50, Discriminator: 2}},
		0x20: {{Func: "main", Line: 12, StartLine: 10}},
		0x30: {{Func: "work", Line: 33, StartLine: 30}, {Func: "helper", Line: 55, StartLine: 50}},
	}
	objs := []callstack.Object{{Path: "/bin/app", Binary: 0}, {Path: "/lib/libc.so", Binary: -1}}
	stack := func(n uint64, locs ...callstack.Loc) *callstack.Stack {
		return &callstack.Stack{Locs: locs, Count: n}
	}
	app := func(a uint64) callstack.Loc { return callstack.Loc{Obj: 0, Addr: a} }
	lib := callstack.Loc{Obj: 1, Addr: 0x99}
	counts := &callstack.Counts{Objects: objs, Stacks: []*callstack.Stack{
		stack(3, app(0x10), app(0x20), lib),
		stack(2, app(0x11), app(0x20), lib),
		stack(4, lib, app(0x30), app(0x20)), // in libc, called from inlined helper
	}}
	profs := stackgen.Generate(counts, []stackgen.Symbolizer{sym})
	var buf bytes.Buffer
	if err := sampleprof.WriteText(&buf, profs[0]); err != nil {
		t.Fatal(err)
	}
	want := `work:5:9
 1: 3
 3: helper:2
  2.2: 2
main:0:0
 2: 0 work:9
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
