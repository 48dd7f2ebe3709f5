package pseudoprobe

import (
	"sort"
)

// link gives every node its probes, by address.
func (t *Table) link() {
	for i := range t.probes {
		p := &t.probes[i]
		p.Node.Probes = append(p.Node.Probes, p)
	}
}

// Len is the number of probes.
func (t *Table) Len() int { return len(t.probes) }

// All returns every probe, by address (at one address in section order).
func (t *Table) All() []Probe { return t.probes }

// first returns the index of the first probe at addr or above.
func (t *Table) first(addr uint64) int {
	return sort.Search(len(t.probes), func(i int) bool { return t.probes[i].Addr >= addr })
}

// At returns the probes at addr, in section order.
func (t *Table) At(addr uint64) []Probe {
	i := t.first(addr)
	j := i
	for j < len(t.probes) && t.probes[j].Addr == addr {
		j++
	}
	return t.probes[i:j:j]
}

// InRange returns the probes at addresses in [first, last], by address.
func (t *Table) InRange(first, last uint64) []Probe {
	i, j := t.Span(first, last)
	return t.probes[i:j:j]
}

// Span returns the indexes in All of the probes at addresses in [first,
// last]: All()[i:j].
func (t *Table) Span(first, last uint64) (i, j int) {
	if last < first {
		return 0, 0
	}
	i = t.first(first)
	j = i + sort.Search(len(t.probes)-i, func(k int) bool { return t.probes[i+k].Addr > last })
	return i, j
}

// CallProbeAt returns the first call probe at addr, or nil. (Probes of
// same-named static functions can share a call site; LLVM takes the first
// too.)
func (t *Table) CallProbeAt(addr uint64) *Probe {
	ps := t.At(addr)
	for i := range ps {
		if ps[i].IsCall() {
			return &ps[i]
		}
	}
	return nil
}

// Children returns the functions inlined into n, by call site, then GUID.
func (n *Node) Children() []*Node {
	out := make([]*Node, 0, len(n.children))
	for _, c := range n.children {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Site != out[j].Site {
			return out[i].Site < out[j].Site
		}
		return out[i].GUID < out[j].GUID
	})
	return out
}

// Frame is one level of a probe's inline context: a function and the
// probe index there (the call site for a caller, the probe itself for the
// leaf).
type Frame struct {
	Name  string
	GUID  uint64
	Index uint32
}

// InlineContext returns the inline context of p, outermost first: each
// caller with the index of its call-site probe, then, with leaf, p's own
// function and index. Names come from descs; ok is false when a GUID on
// the way has no descriptor (a damaged binary). As llvm-profgen, a call
// site of index 0 (unknown) above the leaf cuts off the context above it.
func (d *Descs) InlineContext(p *Probe, leaf bool, dst []Frame) (frames []Frame, ok bool) {
	dst = dst[:0]
	for n := p.Node; n.Parent != nil; n = n.Parent {
		caller := d.Lookup(n.Parent.GUID)
		if caller == nil {
			return dst, false
		}
		dst = append(dst, Frame{Name: caller.Name, GUID: caller.GUID, Index: n.Site})
	}
	reverse(dst)
	if leaf {
		own := d.Lookup(p.Node.GUID)
		if own == nil {
			return dst, false
		}
		dst = append(dst, Frame{Name: own.Name, GUID: own.GUID, Index: p.Index})
	}
	return cutUnknownSites(dst), true
}

func reverse(fs []Frame) {
	for i, j := 0, len(fs)-1; i < j; i, j = i+1, j-1 {
		fs[i], fs[j] = fs[j], fs[i]
	}
}

// cutUnknownSites drops every frame up to the last call site of index 0
// that is not the last frame.
func cutUnknownSites(fs []Frame) []Frame {
	start := 0
	for i := 0; i < len(fs)-1; i++ {
		if fs[i].Index == 0 {
			start = i + 1
		}
	}
	if start == 0 {
		return fs
	}
	return append(fs[:0], fs[start:]...)
}
