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
	var b strings.Builder
	for i, f := range ctx {
		if i > 0 {
			b.WriteString(" @ ")
		}
		b.WriteString(f.Func)
		if i == len(ctx)-1 {
			break
		}
		b.WriteByte(':')
		b.WriteString(strconv.FormatUint(uint64(f.Loc.LineOffset), 10))
		if f.Loc.Discriminator != 0 {
			b.WriteByte('.')
			b.WriteString(strconv.FormatUint(uint64(f.Loc.Discriminator), 10))
		}
	}
	return b.String()
}

// ParseContext reads a context written by ContextString (without the
// brackets), as LLVM's SampleContext::createCtxVectorFromStr.
func ParseContext(s string) ([]ContextFrame, error) {
	parts := strings.Split(s, " @ ")
	ctx := make([]ContextFrame, len(parts))
	for i, p := range parts {
		if i == len(parts)-1 {
			ctx[i] = ContextFrame{Func: p}
			break
		}
		j := strings.LastIndexByte(p, ':')
		if j <= 0 {
			return nil, fmt.Errorf("context frame %q has no call site location", p)
		}
		loc, ok := parseLocation(p[j+1:])
		if !ok {
			return nil, fmt.Errorf("context frame %q: bad call site location", p)
		}
		ctx[i] = ContextFrame{Func: p[:j], Loc: loc}
	}
	return ctx, nil
}
