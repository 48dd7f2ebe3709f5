package driver

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/csprofile"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/unwind"
)

// csProbeSampleProfile is the CS probe profile of address contexts (a
// binary with pseudo probes).
func csProbeSampleProfile(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	prof, err := csProbeProfile(o.plan, bins, in.syms, in.addressContexts)
	if err != nil {
		return nil, err
	}
	if err := finishCSProfile(o, bins, prof); err != nil {
		return nil, err
	}
	return []profileFile{sampleProfileFile(o, 0, prof)}, nil
}

// csProbeAddressProfile is address contexts unsymbolized, in
// llvm-profgen's format (the contexts named by their call-site addresses).
func csProbeAddressProfile(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	base := o.LLVM.unsymbolizedBase(bins.primary())
	raw := make([]rawprof.Context, len(in.addressContexts))
	for i, c := range in.addressContexts {
		raw[i] = rawprof.Context{Name: rawprof.AddressContextName(c.Addrs, base), Counters: c.Counters}
	}
	return oneFile(func(w io.Writer) error { return rawprof.WriteCS(w, raw, base) }), nil
}

// csProbeProfile makes the CS probe profile of address contexts.
func csProbeProfile(p *plan, bins *binaries, syms *csprofile.Symbols, ctxs []unwind.Context) (*sampleprof.Profile, error) {
	f := bins.primary()
	pb, err := probeBinary(bins)
	if err != nil {
		return nil, err
	}
	copts := csprofile.ContextOptions{
		CompressRecursion:  p.CS.CompressRecursion,
		MaxContextDepth:    p.CS.MaxContextDepth,
		InferMissingFrames: p.CS.InferMissingFrames,
		MaxSearchDepth:     int(p.CS.MaxSearchDepth),
	}
	bin := csprofile.ProbeBinary{Binary: csprofile.Binary{Code: instSizes{f}, Syms: syms}, Inst: f, Probes: pb}
	res, descs, err := csprofile.GenerateProbe(ctxs, bin, copts, csProfileOptions(p, bins))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	if err := showPseudoProbes(p, descs); err != nil {
		return nil, err
	}
	return res.Profile, nil
}

// unsymbolizedAddressContexts are the address contexts of a
// context-sensitive unsymbolized profile of a binary with pseudo probes:
// its contexts are call-site addresses. (llvm-profgen 19 crashes on such
// input: it reads every context as frames.)
func unsymbolizedAddressContexts(p *plan, bins *binaries, name string, raw []rawprof.Context) (*profileInput, error) {
	base := p.LLVM.unsymbolizedBase(bins.primary())
	ctxs := make([]unwind.Context, 0, len(raw))
	for _, r := range raw {
		addrs, err := rawprof.ParseAddressContext(r.Name, base)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: context [%s]: %w", name, r.Line, r.Name, err)
		}
		ctxs = append(ctxs, unwind.Context{Addrs: addrs, Counters: r.Counters})
	}
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, err
	}
	return &profileInput{kind: kindCSProbe, addressContexts: ctxs, syms: csprofile.NewSymbols(sym)}, nil
}
