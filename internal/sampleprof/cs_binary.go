package sampleprof

import "sort"

// contextTable is the CS name table of an extbinary context-sensitive
// profile: every profile's context, sorted as LLVM's SampleContext, each
// referred to by its index where a plain profile has its name's.
type contextTable struct {
	cs       bool
	profiles []*FunctionSamples // in context order
	index    map[*FunctionSamples]uint64
}

func newContextTable(p *Profile, t *nameTable) *contextTable {
	c := &contextTable{cs: p.CS}
	if !p.CS {
		return c
	}
	for _, f := range p.Functions {
		c.profiles = append(c.profiles, f)
	}
	sort.Slice(c.profiles, func(i, j int) bool { return contextLess(framesOf(c.profiles[i]), framesOf(c.profiles[j])) })
	c.index = make(map[*FunctionSamples]uint64, len(c.profiles))
	for i, f := range c.profiles {
		c.index[f] = uint64(i)
	}
	return c
}

// idx is how a top-level profile is referred to: its context's index in a
// CS profile, its name's otherwise.
func (c *contextTable) idx(f *FunctionSamples, t *nameTable) uint64 {
	if c.cs {
		return c.index[f]
	}
	return t.index[f.Name]
}

// section writes the CS name table: the number of contexts, then for each
// its number of frames and each frame's name index and call-site location
// (the leaf's is 0:0).
func (c *contextTable) section(t *nameTable) *section {
	var e encoder
	e.uleb(uint64(len(c.profiles)))
	for _, f := range c.profiles {
		frames := framesOf(f)
		e.uleb(uint64(len(frames)))
		for _, fr := range frames {
			e.uleb(t.index[fr.Func])
			e.location(fr.Loc)
		}
	}
	return &section{typ: secCSNameTable, data: e.buf}
}

// framesOf is f's context, or for a profile of a CS profile read without
// one (a name where a context is expected) the context of its name alone:
// a context has a frame, as readers require.
func framesOf(f *FunctionSamples) []ContextFrame {
	if len(f.Context) == 0 {
		return []ContextFrame{{Func: f.Name}}
	}
	return f.Context
}

// bodyIn writes a top-level profile's body, referring to it through c.
func (e *encoder) bodyIn(f *FunctionSamples, t *nameTable, c *contextTable) {
	if !c.cs {
		e.body(f, t)
		return
	}
	e.uleb(c.index[f])
	e.bodyRest(f, t)
}

// csMetadata writes a CS profile's metadata: its context index, checksum
// and attributes (contexts have no inlinees).
func (e *encoder) csMetadata(f *FunctionSamples, t *nameTable, c *contextTable, flags uint64) {
	e.uleb(c.index[f])
	if flags&secFlagIsProbeBased != 0 {
		e.uleb(f.Checksum)
	}
	e.uleb(uint64(f.Attributes))
}
