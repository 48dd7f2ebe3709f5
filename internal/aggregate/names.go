package aggregate

import (
	"slices"

	"github.com/profgen/profgen/internal/record"
)

// Naming frames on demand. perf.data read natively can leave its frames
// unnamed (perfdata.Native.DeferChainSymbols); the aggregation then names
// the frames outside the profiled binaries itself, through a Namer, and
// only those of the stacks it keeps: the symbols of a DSO are read when a
// kept stack has a frame in it, not for every DSO a recording maps. The
// name of a location is the one it has when the frames come named: that
// of its first frame, in input order, that has a name. So each location
// keeps the distinct frames it was seen with, in order, until Counts
// names it.

// Namer names a DSO-relative address (a kernel address: absolute) as perf
// does; Prefetch may load a DSO's symbols in the background. perfsyms.Namer
// is one.
type Namer interface {
	Name(dso string, kernel bool, addr uint64) string
	Prefetch(dso string, kernel bool)
}

// NameWith has n name the frames outside the binaries that come without a
// symbol name.
func (a *Stacks) NameWith(n Namer) {
	a.namer = n
	a.nameSources = map[Loc][]nameSource{}
	a.prefetched = map[int32]bool{}
}

// nameSource is where a location's name may come from: a frame's name,
// or the frame to ask the namer about.
type nameSource struct {
	name   string // the frame's name, "" to ask the namer
	dso    string
	kernel bool
	addr   uint64
}

// noteName records the name, or the frame to name, of a frame at l
// outside the binaries.
func (a *Stacks) noteName(l Loc, kernel bool, f record.Frame) {
	if a.namer == nil {
		if _, seen := a.counts.Symbols[l]; !seen && f.Symbol != "" && f.Symbol != "[unknown]" {
			a.counts.Symbols[l] = trimOffset(f.Symbol)
		}
		return
	}
	src := nameSource{name: f.Symbol}
	switch f.Symbol {
	case "[unknown]":
		return // no name, and nothing to ask
	case "":
		src = nameSource{dso: f.DSO, kernel: kernel, addr: f.Addr}
	}
	a.addNameSource(l, src)
}

func (a *Stacks) addNameSource(l Loc, src nameSource) {
	srcs := a.nameSources[l]
	if len(srcs) > 0 && srcs[0].name != "" || slices.Contains(srcs, src) {
		return // a name came first, or this frame was seen
	}
	a.nameSources[l] = append(srcs, src)
}

// prefetchNames starts loading the symbols of the DSOs outside the
// binaries that the kept sample in a.locs has frames in, the first time.
func (a *Stacks) prefetchNames() {
	if a.namer == nil {
		return
	}
	for _, l := range a.locs {
		o := a.counts.Objects[l.Obj]
		if o.Binary < 0 && !a.prefetched[l.Obj] {
			a.prefetched[l.Obj] = true
			a.namer.Prefetch(o.Path, o.Kernel)
		}
	}
}

// nameKept names the locations of the kept stacks outside the binaries.
func (a *Stacks) nameKept(stacks []*Stack) {
	if a.namer == nil {
		return
	}
	for _, st := range stacks {
		for _, l := range st.Locs {
			if a.counts.Objects[l.Obj].Binary >= 0 {
				continue
			}
			if _, done := a.counts.Symbols[l]; done {
				continue
			}
			if name := a.nameOf(a.nameSources[l]); name != "" {
				a.counts.Symbols[l] = trimOffset(name)
			}
		}
	}
}

// nameOf is the first name the sources give.
func (a *Stacks) nameOf(srcs []nameSource) string {
	for _, s := range srcs {
		name := s.name
		if name == "" {
			name = a.namer.Name(s.dso, s.kernel, s.addr)
		}
		if name != "" {
			return name
		}
	}
	return ""
}

// mergeNames adds o's name sources to a's, as if o's frames came after
// a's; ids maps o's objects to a's.
func (a *Stacks) mergeNames(o *Stacks, ids []int32) {
	for l, name := range o.counts.Symbols {
		l.Obj = ids[l.Obj]
		if _, seen := a.counts.Symbols[l]; !seen {
			a.counts.Symbols[l] = name
		}
	}
	if a.namer == nil {
		return
	}
	for l, srcs := range o.nameSources {
		l.Obj = ids[l.Obj]
		for _, src := range srcs {
			a.addNameSource(l, src)
		}
	}
}
