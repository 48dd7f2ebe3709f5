package driver

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/csprofile"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/unwind"
)

// writeAddressContexts writes the address contexts of a binary with
// pseudo probes: unsymbolized (contexts as call-site addresses), or as a
// CS probe profile.
func writeAddressContexts(opts Options, bins *binaries, syms *csprofile.Symbols, ctxs []unwind.Context) error {
	path, err := OutputPath(opts.Output, bins.primary().Path(), 1)
	if err != nil {
		return err
	}
	base := opts.LLVM.unsymbolizedBase(bins.primary())
	if opts.SkipSymbolization {
		raw := make([]rawprof.Context, len(ctxs))
		for i, c := range ctxs {
			raw[i] = rawprof.Context{Name: rawprof.AddressContextName(c.Addrs, base), Counters: c.Counters}
		}
		return writeFile(path, func(w io.Writer) error { return rawprof.WriteCS(w, raw, base) })
	}
	prof, err := csProbeProfile(opts, bins, syms, ctxs)
	if err != nil {
		return err
	}
	if err := finishCSProfile(opts, bins, prof); err != nil {
		return err
	}
	return writeSampleProfile(opts, path, prof)
}

// csProbeProfile makes the CS probe profile of address contexts.
func csProbeProfile(opts Options, bins *binaries, syms *csprofile.Symbols, ctxs []unwind.Context) (*sampleprof.Profile, error) {
	f := bins.primary()
	pb, err := probeBinary(bins)
	if err != nil {
		return nil, err
	}
	copts := csprofile.ContextOptions{
		CompressRecursion:  opts.CS.CompressRecursion,
		MaxContextDepth:    opts.CS.MaxContextDepth,
		InferMissingFrames: opts.CS.InferMissingFrames,
		MaxSearchDepth:     int(opts.CS.MaxSearchDepth),
	}
	bin := csprofile.ProbeBinary{Binary: csprofile.Binary{Code: instSizes{f}, Syms: syms}, Inst: f, Probes: pb}
	res, descs, err := csprofile.GenerateProbe(ctxs, bin, copts, csProfileOptions(opts, bins))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	if err := showPseudoProbes(opts, descs); err != nil {
		return nil, err
	}
	return res.Profile, nil
}

// convertUnsymbolizedProbeCS makes the CS profile of a context-sensitive
// unsymbolized profile of a binary with pseudo probes: its contexts are
// call-site addresses. (llvm-profgen 19 crashes on such input: it reads
// every context as frames.)
func convertUnsymbolizedProbeCS(opts Options, bins *binaries, name string, raw []rawprof.Context) error {
	base := opts.LLVM.unsymbolizedBase(bins.primary())
	ctxs := make([]unwind.Context, 0, len(raw))
	for _, r := range raw {
		addrs, err := rawprof.ParseAddressContext(r.Name, base)
		if err != nil {
			return fmt.Errorf("%s:%d: context [%s]: %w", name, r.Line, r.Name, err)
		}
		ctxs = append(ctxs, unwind.Context{Addrs: addrs, Counters: r.Counters})
	}
	sym, err := bins.symbolizer(0)
	if err != nil {
		return err
	}
	return writeAddressContexts(opts, bins, csprofile.NewSymbols(sym), ctxs)
}
