package csprofile

import (
	"slices"
	"sort"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
	"github.com/profgen/profgen/internal/unwind"
)

var _ unwind.Keyer = (*FrameContexts)(nil)

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
	// InferMissingFrames puts back the frames of tail calls between call
	// sites (--infer-missing-frames); pseudo-probe contexts only, as in
	// llvm-profgen 19.
	InferMissingFrames bool
	// MaxSearchDepth bounds the tail-call chains the inference searches
	// (--max-search-depth; -1: no bound).
	MaxSearchDepth int
}

// DefaultContextOptions are llvm-profgen 19's defaults.
var DefaultContextOptions = ContextOptions{CompressRecursion: -1, MaxContextDepth: -1, MaxSearchDepth: -1}

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

// FrameContexts names the unwinder's contexts by their frames (an
// unwind.Keyer): each address of a context expands to its inline frames,
// discriminators are reduced to base ones, recursion is compressed and the
// context trimmed (the leaf frame is kept whole); address contexts that
// expand to the same frames share an id, and so their counters.
type FrameContexts struct {
	sym  *Symbols
	opts ContextOptions
	ids  map[string]int
	ctxs []Context // by id, without counters
	keys []string  // by id: ContextString of the frames

	scratch []sampleprof.ContextFrame
	text    []byte
	// known caches ids by what determines a frame context: the callers'
	// addresses and the leaf's inline context and function (packed: the
	// callers above, the leaf id below).
	known map[uint64]int
}

// NewFrameContexts returns a Keyer symbolizing with sym.
func NewFrameContexts(sym *Symbols, opts ContextOptions) *FrameContexts {
	return &FrameContexts{sym: sym, opts: opts, ids: map[string]int{}, known: map[uint64]int{}}
}

// Key returns the id of the frame context of addrs.
func (f *FrameContexts) Key(callers int, addrs []uint64) int {
	var lk uint64
	if len(addrs) > 0 {
		if leaf := f.sym.at(addrs[len(addrs)-1]); leaf.leaf != 0 {
			lk = uint64(callers+1)<<32 | uint64(leaf.leaf)
			if id, ok := f.known[lk]; ok {
				f.ctxs[id].WasLeafInlined = f.ctxs[id].WasLeafInlined || len(leaf.frames) > 1
				return id
			}
		}
	}
	id := f.key(addrs)
	if lk != 0 {
		f.known[lk] = id
	}
	return id
}

func (f *FrameContexts) key(addrs []uint64) int {
	frames, inlined := expand(f.scratch[:0], addrs, f.sym, f.opts)
	f.scratch = frames[:0]
	f.text = sampleprof.AppendContextString(f.text[:0], frames)
	if id, ok := f.ids[string(f.text)]; ok {
		f.ctxs[id].WasLeafInlined = f.ctxs[id].WasLeafInlined || inlined
		return id
	}
	id := len(f.ctxs)
	key := string(f.text)
	f.ids[key] = id
	f.ctxs = append(f.ctxs, Context{Frames: slices.Clone(frames), WasLeafInlined: inlined})
	f.keys = append(f.keys, key)
	return id
}

// Contexts pairs the contexts with their counters (by id, as
// unwind.Unwinder.Counters gives them), sorted by ContextString, the order
// of llvm-profgen's unsymbolized output.
func (f *FrameContexts) Contexts(counters []*aggregate.Counters) []Context {
	var ids []int
	for id, c := range counters {
		if c != nil {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return f.keys[ids[i]] < f.keys[ids[j]] })
	out := make([]Context, len(ids))
	for i, id := range ids {
		out[i] = f.ctxs[id]
		out[i].Counters = counters[id]
	}
	return out
}

// expand returns the frame context of an address context
// (ProfiledBinary::getExpandedContext). An address without debug info
// makes the whole context empty.
func expand(ctx []sampleprof.ContextFrame, addrs []uint64, sym *Symbols, opts ContextOptions) (_ []sampleprof.ContextFrame, leafInlined bool) {
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
	return append(callers, leaf), leafInlined // callers lies within ctx: room for the leaf
}

// MergeContexts pairs the contexts of several unwindings (each its keyer
// and its counters by id) with their counters, summing those of the same
// frames, sorted as Contexts sorts them.
func MergeContexts(keys []*FrameContexts, counters [][]*aggregate.Counters) []Context {
	if len(keys) == 1 {
		return keys[0].Contexts(counters[0])
	}
	byKey := map[string]*Context{}
	var order []string
	for i, f := range keys {
		for id, c := range counters[i] {
			if c == nil {
				continue
			}
			k := f.keys[id]
			if m := byKey[k]; m != nil {
				m.Counters.Add(c)
				m.WasLeafInlined = m.WasLeafInlined || f.ctxs[id].WasLeafInlined
				continue
			}
			ctx := f.ctxs[id]
			ctx.Counters = c
			byKey[k] = &ctx
			order = append(order, k)
		}
	}
	sort.Strings(order)
	out := make([]Context, len(order))
	for i, k := range order {
		out[i] = *byKey[k]
	}
	return out
}
