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
func csProfile(p *plan, h *hybridPath) (*profileInput, error) {
	if p.DataAccessTrace != "" {
		return nil, errDataAccessMode
	}
	in := &profileInput{kind: kindCS, syms: h.syms}
	if h.probes {
		in.kind = kindCSProbe
	}
	for _, o := range p.outputs {
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
	h.warnUnwinding(p, n)
	return in, nil
}

// warnUnwinding prints llvm-profgen's warnings about the unwinding of the
// samples into contexts.
func (h *hybridPath) warnUnwinding(p *plan, contexts int) {
	d := h.queue.distinct()
	h.warnTruncatedStacks(p, d)
	h.warnRanges(p)
	h.warnTruncated(p, contexts)
	h.warnBranches(p, d)
}

// warnTruncated prints llvm-profgen's warning about contexts cut at an
// external frame (its untracked call sites: the external address, once).
func (h *hybridPath) warnTruncated(p *plan, contexts int) {
	if !h.queue.externalCallers() {
		return
	}
	if p.LLVM.ShowDetailedWarning {
		fmt.Fprintf(p.Stderr, "warning: Profile context truncated due to missing probe for call instruction at %#x\n", uint64(unwind.ExternalAddr))
	}
	warnShare(p.Stderr, 1, uint64(contexts), "of profiled contexts are truncated due to missing probe for call instruction.")
}

// warnRanges prints llvm-profgen's shares of the samples' fall-through
// ranges that do not fit the binary, over the hybrid samples unwound.
func (h *hybridPath) warnRanges(p *plan) {
	pairs, total := h.queue.pairs()
	funcs, ok := primaryFuncAt(h.bins)
	if !ok {
		return // reported when the profile is written
	}
	checkRanges(pairs, total, h.bins.primary(), funcs, false).print(p.Stderr, p.LLVM.ShowDetailedWarning)
}

// warnTruncatedStacks prints llvm-profgen's warning about stacks cut at
// a return address not after a call: distinct such addresses over
// distinct samples.
func (h *hybridPath) warnTruncatedStacks(p *plan, d *unwind.Distinct) {
	invalid := d.InvalidReturns()
	if p.LLVM.ShowDetailedWarning {
		for _, a := range invalid {
			fmt.Fprintf(p.Stderr, "warning: Truncated stack sample due to invalid return address at %#x, likely caused by frame pointer omission\n", a)
		}
	}
	warnShare(p.Stderr, uint64(len(invalid)), uint64(d.Len()), "of truncated stack samples due to invalid return address, likely caused by frame pointer omission.")
}

// warnBranches prints llvm-profgen's warnings about the branches its
// unwinder could not follow, over the distinct samples.
func (h *hybridPath) warnBranches(p *plan, d *unwind.Distinct) {
	b := d.Warnings()
	w := p.Stderr
	warnShare(w, b.MismatchedExtCalls, b.Branches, "of branches'source is a call instruction but doesn't match call frame stack, likely due to unwinding error of external frame.")
	warnShare(w, b.PairedExternal*2, b.Branches, "of branches containing paired external address.")
	warnShare(w, b.UnpairedExternal, b.Branches, "of branches containing external address but doesn't have another external address to pair, likely due to interrupt jmp or broken perf script.")
	warnShare(w, b.MismatchedCalls, b.Branches, "of branches'source is a call instruction but doesn't match call frame stack, likely due to frame in prolog/epilog.")
}

// csSampleProfile is the CS sample profile of frame contexts.
func csSampleProfile(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	res := csprofile.Generate(in.contexts, csprofile.Binary{Code: instSizes{bins.primary()}, Syms: in.syms}, csProfileOptions(o.plan, bins))
	if err := finishCSProfile(o, bins, res.Profile); err != nil {
		return nil, err
	}
	return []profileFile{sampleProfileFile(o, 0, res.Profile)}, nil
}

// csAddressProfile is frame contexts unsymbolized, in llvm-profgen's
// format (the contexts named by their frames).
func csAddressProfile(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	raw := rawContexts(in.contexts)
	base := o.LLVM.unsymbolizedBase(bins.primary())
	return oneFile(func(w io.Writer) error { return rawprof.WriteCS(w, raw, base) }), nil
}

// finishCSProfile does to a CS profile what llvm-profgen does to every
// profile it writes: the binary's function names stored (extbinary with
// --populate-profile-symbol-list) and the density checked.
func finishCSProfile(o *output, bins *binaries, prof *sampleprof.Profile) error {
	if d := o.LLVM.Density; d != nil {
		reportDensity(o.Stderr, o.Stdout, d, sampleprof.Density(prof, d.CutoffHot))
	}
	if !o.LLVM.PopulateProfileSymbolList || o.encoding != sampleprof.FormatExtBinary {
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
func csProfileOptions(p *plan, bins *binaries) csprofile.Options {
	gopts := p.CS.profileOptions(bins.generateOptions(0).FSDiscriminators)
	gopts.UpdateTotalSamples = gopts.UpdateTotalSamples || p.LLVM.UpdateTotalSamples
	gopts.HotCount = p.LLVM.SummaryHotCount
	gopts.ColdCount = p.LLVM.SummaryColdCount
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
func csFromSampleProfile(o *output, bins *binaries, in *sampleprof.Profile) (*sampleprof.Profile, error) {
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, err
	}
	f := bins.primary()
	bin := csprofile.Binary{Code: instSizes{f}, Syms: csprofile.NewSymbols(sym)}
	var res *csprofile.Result
	if usePseudoProbes(o.plan, bins) {
		pb, err := probeBinary(bins)
		if err != nil {
			return nil, err
		}
		pbin := csprofile.ProbeBinary{Binary: bin, Inst: f, Probes: pb}
		if res, err = csprofile.FromProbeProfile(in, pbin, sym.Functions(), csProfileOptions(o.plan, bins)); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path(), err)
		}
	} else {
		res = csprofile.FromProfile(in, bin, sym.Functions(), csProfileOptions(o.plan, bins))
	}
	if err := finishCSProfile(o, bins, res.Profile); err != nil {
		return nil, err
	}
	return res.Profile, nil
}
