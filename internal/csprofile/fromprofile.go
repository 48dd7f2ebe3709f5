package csprofile

import (
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// FromProfile is what llvm-profgen 19 does to a flat CS profile it reads
// (--llvm-sample-profile, CSProfileGenerator built on the profile map):
// the contexts go into the trie as written, with their attributes, and
// through the post-processing of generated ones (summary, pre-inliner,
// cold contexts, nesting). funcs are the binary's functions: those the
// trie names are the profiled ones, whose sizes the pre-inliner weighs.
func FromProfile(in *sampleprof.Profile, bin Binary, funcs []*symbolize.Function, opts Options) *Result {
	g := &generator{bin: bin, opts: opts, t: trieOf(in)}
	var sz *sizes
	if opts.PreInliner && opts.ContextCost {
		sz = newSizes(g.t.names)
		for _, fn := range namedFunctions(g.t, funcs) {
			sz.addFunction(fn, bin.Code, bin.Syms)
		}
	}
	res := g.finish(sz)
	res.Profile.ProbeBased = in.ProbeBased // its checksums are kept, and written
	return res
}

// FromProbeProfile is FromProfile for a binary with pseudo probes: the
// sizes key call sites by probe index and know the inlinees optimized
// away, from the probes of the profiled functions.
func FromProbeProfile(in *sampleprof.Profile, bin ProbeBinary, funcs []*symbolize.Function, opts Options) (*Result, error) {
	pg := &probeGenerator{generator: generator{bin: bin.Binary, opts: opts, t: trieOf(in)}}
	var sz *sizes
	if opts.PreInliner && opts.ContextCost {
		named := namedFunctions(pg.t, funcs)
		profiled := make(map[*symbolize.Function]bool, len(named))
		for _, f := range named {
			profiled[f] = true
		}
		descs, table, err := generate.DecodeProbes(bin.Probes, profiled)
		if err != nil {
			return nil, err
		}
		pg.descs, pg.table = descs, table
		sz = pg.sizes(named)
	}
	res := pg.finish(sz)
	res.Profile.ProbeBased = true
	return res, nil
}

// trieOf puts the profiles of a flat CS profile at their contexts
// (SampleContextTracker built on a profile map).
func trieOf(in *sampleprof.Profile) *trie {
	t := newTrie()
	for _, fs := range in.Functions {
		ctx := fs.Context
		if len(ctx) == 0 {
			ctx = []sampleprof.ContextFrame{{Func: fs.Name}}
		}
		nd := t.path(ctx)
		nd.prof = &profile{fs: fs, node: nd}
	}
	return t
}

// namedFunctions returns the functions of funcs that nodes of the trie
// name (collectFunctionsFromLLVMProfile), in the order of funcs.
func namedFunctions(t *trie, funcs []*symbolize.Function) []*symbolize.Function {
	named := map[string]bool{}
	for _, nd := range t.nodes() {
		named[nd.fn] = true
	}
	var out []*symbolize.Function
	for _, f := range funcs {
		if named[f.Name] {
			out = append(out, f)
		}
	}
	return out
}
