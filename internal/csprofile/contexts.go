package csprofile

import (
	"sort"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
	"github.com/profgen/profgen/internal/unwind"
)

// ContextOptions say how address contexts become frame contexts.
type ContextOptions struct {
	// CompressRecursion is the longest repeated frame sequence removed from
	// contexts (--compress-recursion; -1: any length, 0: none).
	CompressRecursion int
	// MaxContextDepth keeps that many caller frames of a context (-1: all;
	// --csprof-max-context-depth).
	MaxContextDepth int
	// FSDiscriminators keeps discriminators whole (flow-sensitive ones);
	// otherwise contexts hold base discriminators.
	FSDiscriminators bool
}

// DefaultContextOptions are llvm-profgen 19's defaults.
var DefaultContextOptions = ContextOptions{CompressRecursion: -1, MaxContextDepth: -1}

// Context is the counters of one calling context of frames (function and
// call site), as llvm-profgen keys a line-number CS profile.
type Context struct {
	// Frames is the context, outermost first; the leaf frame's location is
	// zero. Empty for the root context (branches from outside the binary,
	// code outside the binary, code without debug info).
	Frames []sampleprof.ContextFrame
	// WasLeafInlined says the leaf function was inlined where it ran.
	WasLeafInlined bool
	Counters       *aggregate.Counters
}

// SymbolizeContexts turns the unwinder's address contexts into frame
// contexts: each address expands to its inline frames, discriminators are
// reduced to base ones, recursion is compressed and the context trimmed
// (the leaf frame is kept whole), and counters of address contexts that
// expand to the same frames are summed. The result is sorted by
// ContextString, the order of llvm-profgen's unsymbolized output.
func SymbolizeContexts(ctxs []unwind.Context, sym *Symbols, opts ContextOptions) []Context {
	byKey := map[string]*Context{}
	var keys []string
	for _, c := range ctxs {
		frames, inlined := expand(c.Addrs, sym, opts)
		key := sampleprof.ContextString(frames)
		if m := byKey[key]; m != nil {
			m.Counters.Add(c.Counters)
			m.WasLeafInlined = m.WasLeafInlined || inlined
			continue
		}
		counters := aggregate.NewCounters()
		counters.Add(c.Counters)
		byKey[key] = &Context{Frames: frames, WasLeafInlined: inlined, Counters: counters}
		keys = append(keys, key)
	}
	sort.Strings(keys)
	out := make([]Context, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	return out
}

// expand returns the frame context of an address context
// (ProfiledBinary::getExpandedContext). An address without debug info
// makes the whole context empty.
func expand(addrs []uint64, sym *Symbols, opts ContextOptions) (ctx []sampleprof.ContextFrame, leafInlined bool) {
	for _, a := range addrs {
		fs := sym.Frames(a)
		if len(fs) == 0 {
			return nil, false
		}
		leafInlined = len(fs) > 1
		ctx = append(ctx, fs...)
	}
	if len(ctx) == 0 {
		return nil, false
	}
	if !opts.FSDiscriminators {
		for i := range ctx {
			ctx[i].Loc.Discriminator = symbolize.BaseDiscriminator(ctx[i].Loc.Discriminator)
		}
	}
	leaf := sampleprof.ContextFrame{Func: ctx[len(ctx)-1].Func}
	callers := unwind.CompressRecursion(ctx[:len(ctx)-1], opts.CompressRecursion)
	callers = unwind.TrimContext(callers, opts.MaxContextDepth)
	return append(callers[:len(callers):len(callers)], leaf), leafInlined
}
