package aggregate

import (
	"maps"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/record"
)

// namesScript has a first, dropped sample (no frame in /bin/big) whose
// libc caller frame at 0x2724a is location 0x27249, which a kept sample's
// libc leaf at 0x27249 (another name) has too: the dropped sample's frame
// names it, as it came first. /usr/bin/cc1 has frames in dropped samples
// only.
const namesScript = `1 PERF_RECORD_MMAP2 1/1: [0x400000(0xc00000) @ 0 fe:00 1 0]: r-xp /bin/big
1 
	     1000 compile (/usr/bin/cc1)
	    2724a first (/usr/lib/libc.so.6)

1 
	    27249 second (/usr/lib/libc.so.6)
	ffffffff81000130 entry_SYSCALL_64 ([kernel.kallsyms])
	   500123 hot+0x3 (/bin/big)
	     2000 [unknown] (/usr/lib/ld.so)

1 
	ffffffff81000200 [unknown] ([kernel.kallsyms])
	   500456 caller+0x16 (/bin/big)
	    2724a first (/usr/lib/libc.so.6)

`

// fakeNamer names frames as namesScript does and notes what it is asked.
type fakeNamer struct {
	names             map[nameSource]string
	asked, prefetched map[string]bool
}

func (n *fakeNamer) Name(dso string, kernel bool, addr uint64) string {
	n.asked[dso] = true
	return n.names[nameSource{dso: dso, kernel: kernel, addr: addr}]
}

func (n *fakeNamer) Prefetch(dso string, kernel bool) { n.prefetched[dso] = true }

// TestNameWith checks that frames named on demand give the locations the
// names they have when they come named, and that only the DSOs of kept
// stacks are read.
func TestNameWith(t *testing.T) {
	named := aggregateScript(t, namesScript, nil)
	n := &fakeNamer{names: map[nameSource]string{}, asked: map[string]bool{}, prefetched: map[string]bool{}}
	unnamed := aggregateScript(t, namesScript, func(f *record.Frame) {
		if f.Symbol != "[unknown]" {
			n.names[nameSource{dso: f.DSO, kernel: isKernel(*f), addr: f.Addr}] = f.Symbol
		}
		f.Symbol = ""
	}, n)
	if want := keptSymbols(named); !maps.Equal(unnamed.Symbols, want) || len(want) != 2 {
		t.Errorf("named on demand: %v, named in the input: %v", unnamed.Symbols, want)
	}
	if n.asked["/usr/bin/cc1"] || n.prefetched["/usr/bin/cc1"] {
		t.Error("cc1, only in dropped samples, was read")
	}
	if !n.prefetched["/usr/lib/libc.so.6"] || !n.prefetched[KernelDSO] || !n.prefetched["/usr/lib/ld.so"] {
		t.Errorf("prefetched %v", n.prefetched)
	}
}

// keptSymbols are the names of c's locations in its stacks.
func keptSymbols(c *StackCounts) map[Loc]string {
	out := map[Loc]string{}
	for _, st := range c.Stacks {
		for _, l := range st.Locs {
			if name, ok := c.Symbols[l]; ok {
				out[l] = name
			}
		}
	}
	return out
}

// aggregateScript aggregates a perf script text, each frame first passed
// through edit when it is not nil, naming with namer if given.
func aggregateScript(t *testing.T, script string, edit func(*record.Frame), namer ...Namer) *StackCounts {
	t.Helper()
	table := addrspace.New(addrspace.Binary{}, nil)
	a := NewStacks([]StackBinary{nonPIE{}}, table)
	if len(namer) > 0 {
		a.NameWith(namer[0])
	}
	s := perfscript.NewScanner(strings.NewReader(script), "t")
	for s.Next() {
		r := s.Record()
		if r.Kind != record.KindSample {
			table.Update(r)
			continue
		}
		for i := range r.Sample.Frames {
			if edit != nil {
				edit(&r.Sample.Frames[i])
			}
		}
		if err := a.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return a.Counts()
}
