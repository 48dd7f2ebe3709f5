package sampleprof

import (
	"fmt"
	"strconv"
	"strings"
)

// ContextFrame is one frame of a calling context (SampleProf.h
// SampleContextFrame): a function and the location of the call it makes to
// the next frame. The last frame of a context, the function the samples
// belong to, has no call location (zero).
type ContextFrame struct {
	Func string
	Loc  LineLocation
}

// ContextString writes a context as LLVM prints it between brackets:
// `main:3 @ foo:2.1 @ bar`, the leaf without its location.
func ContextString(ctx []ContextFrame) string {
	return string(AppendContextString(nil, ctx))
}

// AppendContextString appends ContextString(ctx) to b.
func AppendContextString(b []byte, ctx []ContextFrame) []byte {
	for i, f := range ctx {
		if i > 0 {
			b = append(b, " @ "...)
		}
		b = append(b, f.Func...)
		if i == len(ctx)-1 {
			break
		}
		b = append(b, ':')
		b = strconv.AppendUint(b, uint64(f.Loc.LineOffset), 10)
		if f.Loc.Discriminator != 0 {
			b = append(b, '.')
			b = strconv.AppendUint(b, uint64(f.Loc.Discriminator), 10)
		}
	}
	return b
}

// contextLess orders contexts as LLVM's SampleContext: frame by frame,
// by function name then call-site location, a prefix first.
func contextLess(a, b []ContextFrame) bool {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i].Func != b[i].Func {
			return a[i].Func < b[i].Func
		}
		if a[i].Loc != b[i].Loc {
			return a[i].Loc.Less(b[i].Loc)
		}
	}
	return len(a) < len(b)
}

// ParseContext reads a context written by ContextString (without the
// brackets), as LLVM's SampleContext::createCtxVectorFromStr: frames split
// at " @ ", each function name up to its first ':', a missing location
// 0:0.
func ParseContext(s string) ([]ContextFrame, error) {
	parts := strings.Split(s, " @ ")
	ctx := make([]ContextFrame, len(parts))
	for i, p := range parts {
		fn, loc, hasLoc := strings.Cut(p, ":")
		ctx[i].Func = fn
		if !hasLoc {
			continue
		}
		l, ok := parseLocation(loc)
		if !ok {
			return nil, fmt.Errorf("context frame %q: bad call site location", p)
		}
		ctx[i].Loc = l
	}
	return ctx, nil
}

// MergeFrom adds src's counts into f (FunctionSamples::merge with weight
// 1): totals, head, body records and call targets, inlinees by call site
// and name. An inlinee new to f takes src's attributes; f keeps its own.
func (f *FunctionSamples) MergeFrom(src *FunctionSamples) {
	var over bool
	f.merge(src, 1, nil, &over)
}

// ContextLess returns a CS profile's contexts merged by function, as LLVM
// flattens a CS profile (ProfileConverter::flattenProfile): each function
// made afresh by name, so without the contexts' attributes.
func (p *Profile) ContextLess() *Profile {
	out := NewProfile()
	out.MD5, out.ProbeBased = p.MD5, p.ProbeBased
	for _, k := range sortedKeys(p.Functions) {
		f := p.Functions[k]
		out.Function(f.Name).MergeFrom(f)
	}
	return out
}

// ContextProfile returns the profile of a context in a CS profile,
// creating it.
func (p *Profile) ContextProfile(ctx []ContextFrame) *FunctionSamples {
	key := ContextString(ctx)
	f := p.Functions[key]
	if f == nil {
		f = NewFunctionSamples(ctx[len(ctx)-1].Func)
		f.Context = ctx
		p.Functions[key] = f
	}
	return f
}

// HeadSamplesEstimate is LLVM's FunctionSamples::getHeadSamplesEstimate:
// the head samples of a context-sensitive profile (cs) when it has some,
// else the count of its first location (a body line, or the estimates of
// the callees inlined at the first call site when that comes first), and
// at least 1 when it has any sample. The callees' estimates add up
// saturating, as every count of a merged profile (flattening's entry
// counts included).
func (f *FunctionSamples) HeadSamplesEstimate(cs bool) uint64 {
	if cs && f.HeadSamples != 0 {
		return f.HeadSamples
	}
	var n uint64
	body, sites := SortedLocations(f.Body), SortedLocations(f.Callsites)
	switch {
	case len(body) > 0 && (len(sites) == 0 || body[0].Less(sites[0])):
		n = f.Body[body[0]].Samples
	case len(sites) > 0:
		for _, c := range f.Callsites[sites[0]] {
			n = addSat(n, c.HeadSamplesEstimate(cs))
		}
	}
	if n == 0 && f.TotalSamples > 0 {
		return 1
	}
	return n
}
