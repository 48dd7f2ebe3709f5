package driver

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/csprofile"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/unwind"
)

// csProfile is the context-sensitive result of hybrid samples: the
// contexts as symbolized frames, or as call-site addresses for a binary
// with pseudo probes. A request no row serves is refused before the
// unwinders' contexts are merged.
func csProfile(opts Options, h *hybridPath) (*profileInput, error) {
	if opts.DataAccessTrace != "" {
		return nil, errDataAccessMode
	}
	in := &profileInput{kind: kindCS, syms: h.syms}
	if h.probes {
		in.kind = kindCSProbe
	}
	for _, o := range eachOutput(opts) {
		if _, err := outputFor(in.kind, o); err != nil {
			return nil, err
		}
	}
	n := 0
	if h.probes {
		in.addressContexts = h.addressContexts()
		n = len(in.addressContexts)
	} else {
		in.contexts = h.contexts()
		n = len(in.contexts)
	}
	h.warnUnwinding(opts, n)
	return in, nil
}

// warnUnwinding prints llvm-profgen's warnings about the unwinding of the
// samples into contexts.
func (h *hybridPath) warnUnwinding(opts Options, contexts int) {
	d := h.queue.distinct()
	h.warnTruncatedStacks(opts, d)
	h.warnRanges(opts)
	h.warnTruncated(opts, contexts)
	h.warnBranches(opts, d)
}

// warnTruncated prints llvm-profgen's warning about contexts cut at an
// external frame (its untracked call sites: the external address, once).
func (h *hybridPath) warnTruncated(opts Options, contexts int) {
	if !h.queue.externalCallers() {
		return
	}
	if opts.LLVM.ShowDetailedWarning {
		fmt.Fprintf(opts.Stderr, "warning: Profile context truncated due to missing probe for call instruction at %#x\n", uint64(unwind.ExternalAddr))
	}
	warnShare(opts.Stderr, 1, uint64(contexts), "of profiled contexts are truncated due to missing probe for call instruction.")
}

// warnRanges prints llvm-profgen's shares of the samples' fall-through
// ranges that do not fit the binary, over the hybrid samples unwound.
func (h *hybridPath) warnRanges(opts Options) {
	pairs, total := h.queue.pairs()
	funcs, ok := primaryFuncAt(h.bins)
	if !ok {
		return // reported when the profile is written
	}
	checkRanges(pairs, total, h.bins.primary(), funcs, false).print(opts.Stderr, opts.LLVM.ShowDetailedWarning)
}

// warnTruncatedStacks prints llvm-profgen's warning about stacks cut at
// a return address not after a call: distinct such addresses over
// distinct samples.
func (h *hybridPath) warnTruncatedStacks(opts Options, d *unwind.Distinct) {
	invalid := d.InvalidReturns()
	if opts.LLVM.ShowDetailedWarning {
		for _, a := range invalid {
			fmt.Fprintf(opts.Stderr, "warning: Truncated stack sample due to invalid return address at %#x, likely caused by frame pointer omission\n", a)
		}
	}
	warnShare(opts.Stderr, uint64(len(invalid)), uint64(d.Len()), "of truncated stack samples due to invalid return address, likely caused by frame pointer omission.")
}

// warnBranches prints llvm-profgen's warnings about the branches its
// unwinder could not follow, over the distinct samples.
func (h *hybridPath) warnBranches(opts Options, d *unwind.Distinct) {
	b := d.Warnings()
	w := opts.Stderr
	warnShare(w, b.MismatchedExtCalls, b.Branches, "of branches'source is a call instruction but doesn't match call frame stack, likely due to unwinding error of external frame.")
	warnShare(w, b.PairedExternal*2, b.Branches, "of branches containing paired external address.")
	warnShare(w, b.UnpairedExternal, b.Branches, "of branches containing external address but doesn't have another external address to pair, likely due to interrupt jmp or broken perf script.")
	warnShare(w, b.MismatchedCalls, b.Branches, "of branches'source is a call instruction but doesn't match call frame stack, likely due to frame in prolog/epilog.")
}

// csSampleProfile is the CS sample profile of frame contexts.
func csSampleProfile(opts Options, bins *binaries, in *profileInput) ([]profileFile, error) {
	res := csprofile.Generate(in.contexts, csprofile.Binary{Code: instSizes{bins.primary()}, Syms: in.syms}, csProfileOptions(opts, bins))
	if err := finishCSProfile(opts, bins, res.Profile); err != nil {
		return nil, err
	}
	return []profileFile{sampleProfileFile(opts, 0, res.Profile)}, nil
}

// csAddressProfile is frame contexts unsymbolized, in llvm-profgen's
// format (the contexts named by their frames).
func csAddressProfile(opts Options, bins *binaries, in *profileInput) ([]profileFile, error) {
	raw := rawContexts(in.contexts)
	base := opts.LLVM.unsymbolizedBase(bins.primary())
	return oneFile(func(w io.Writer) error { return rawprof.WriteCS(w, raw, base) }), nil
}

// finishCSProfile does to a CS profile what llvm-profgen does to every
// profile it writes: the binary's function names stored (extbinary with
// --populate-profile-symbol-list) and the density checked.
func finishCSProfile(opts Options, bins *binaries, prof *sampleprof.Profile) error {
	if d := opts.LLVM.Density; d != nil {
		reportDensity(opts.Stderr, opts.Stdout, d, sampleprof.Density(prof, d.CutoffHot))
	}
	if !opts.LLVM.PopulateProfileSymbolList || opts.Format != "extbinary" {
		return nil
	}
	sym, err := bins.symbolizer(0)
	if err != nil {
		return err
	}
	prof.SymbolList = []string{}
	for _, f := range sym.Functions() {
		prof.SymbolList = append(prof.SymbolList, f.Name)
	}
	return nil
}

// csProfileOptions are the options of CS profile generation: the CS
// flags with those of llvm-profgen that concern it.
func csProfileOptions(opts Options, bins *binaries) csprofile.Options {
	gopts := opts.CS.profileOptions(bins.generateOptions(0).FSDiscriminators)
	gopts.UpdateTotalSamples = gopts.UpdateTotalSamples || opts.LLVM.UpdateTotalSamples
	gopts.HotCount = opts.LLVM.SummaryHotCount
	gopts.ColdCount = opts.LLVM.SummaryColdCount
	return gopts
}

// unsymbolizedContexts are the frame contexts of a context-sensitive
// unsymbolized profile (llvm-profgen --unsymbolized-profile), taken as
// written.
func unsymbolizedContexts(bins *binaries, name string, raw []rawprof.Context) (*profileInput, error) {
	ctxs := make([]csprofile.Context, 0, len(raw))
	for _, r := range raw {
		var frames []sampleprof.ContextFrame
		if _, err := rawprof.ParseAddressContext(r.Name, 0); r.Name != "" && err == nil {
			return nil, fmt.Errorf("%s:%d: context [%s] is of call-site addresses, made for a binary with pseudo probes; %s has none", name, r.Line, r.Name, bins.primary().Path())
		}
		if r.Name != "" {
			var err error
			if frames, err = sampleprof.ParseContext(r.Name); err != nil {
				return nil, fmt.Errorf("%s: context [%s]: %w", name, r.Name, err)
			}
		}
		ctxs = append(ctxs, csprofile.Context{Frames: frames, Counters: r.Counters})
	}
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, err
	}
	return &profileInput{kind: kindCS, contexts: ctxs, syms: csprofile.NewSymbols(sym)}, nil
}

// rawContexts names the contexts for the unsymbolized profile.
func rawContexts(ctxs []csprofile.Context) []rawprof.Context {
	out := make([]rawprof.Context, len(ctxs))
	for i, c := range ctxs {
		out[i] = rawprof.Context{Name: sampleprof.ContextString(c.Frames), Counters: c.Counters}
	}
	return out
}

// csFromSampleProfile is the CS profile of a flat CS profile
// (--llvm-sample-profile): its contexts go through what generated ones go
// through after the unwinding (pre-inliner, cold contexts, nesting), as in
// llvm-profgen.
func csFromSampleProfile(opts Options, bins *binaries, in *sampleprof.Profile) (*sampleprof.Profile, error) {
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, err
	}
	f := bins.primary()
	bin := csprofile.Binary{Code: instSizes{f}, Syms: csprofile.NewSymbols(sym)}
	var res *csprofile.Result
	if usePseudoProbes(opts, bins) {
		pb, err := probeBinary(bins)
		if err != nil {
			return nil, err
		}
		pbin := csprofile.ProbeBinary{Binary: bin, Inst: f, Probes: pb}
		if res, err = csprofile.FromProbeProfile(in, pbin, sym.Functions(), csProfileOptions(opts, bins)); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path(), err)
		}
	} else {
		res = csprofile.FromProfile(in, bin, sym.Functions(), csProfileOptions(opts, bins))
	}
	if err := finishCSProfile(opts, bins, res.Profile); err != nil {
		return nil, err
	}
	return res.Profile, nil
}
