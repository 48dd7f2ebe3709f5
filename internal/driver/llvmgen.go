package driver

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// This file applies llvm-profgen's generation flags (LLVMOptions) to the
// LBR path and to --llvm-sample-profile.

// unsymbolizedBase is what the addresses of an unsymbolized profile are
// relative to (--use-offset, --use-first-loadable-segment-as-base).
func (o LLVMOptions) unsymbolizedBase(bin Binary) uint64 {
	switch {
	case o.AbsoluteAddresses:
		return 0
	case o.FirstLoadableBase:
		return bin.FirstLoadableAddress()
	}
	return bin.PreferredBase()
}

// aggregateOptions are the LBR reader flags.
func (o LLVMOptions) aggregateOptions() aggregate.Options {
	return aggregate.Options{LeadingIPOnly: o.LeadingIPOnly, SamplePeriod: o.SamplePeriod}
}

// lbrGenerateOptions are binary 0's generation options with the flags.
func lbrGenerateOptions(p *plan, bins *binaries, sym *symbolize.Table) generate.Options {
	g := bins.generateOptions(0)
	g.SumBodySamples = p.LLVM.LeadingIPOnly
	g.UpdateTotalSamples = p.LLVM.UpdateTotalSamples
	if p.LLVM.FillZeroForAllFuncs {
		g.ZeroRanges = [][2]uint64{}
		for _, f := range sym.Functions() {
			g.ZeroRanges = append(g.ZeroRanges, f.Ranges...)
		}
	}
	return g
}

// finishProfile does what llvm-profgen does to every profile without
// contexts before writing it: cold functions trimmed
// (--trim-cold-profile), ambiguous ones dropped, the symbol list
// (extbinary with --populate-profile-symbol-list) and the density check.
func finishProfile(o *output, sym *symbolize.Table, prof *sampleprof.Profile) {
	generate.Finish(prof, generate.Finishing{TrimCold: o.CS.Profile.TrimColdProfile, ColdCount: o.LLVM.SummaryColdCount})
	if o.CS.Profile.MarkAllPreinlined {
		markAllPreinlined(prof)
	}
	if o.LLVM.PopulateProfileSymbolList && o.encoding == sampleprof.FormatExtBinary {
		prof.SymbolList = []string{}
		for _, f := range sym.Functions() {
			prof.SymbolList = append(prof.SymbolList, f.Name)
		}
	}
	if d := o.LLVM.Density; d != nil {
		reportDensity(o.Stderr, o.Stdout, d, sampleprof.Density(prof, d.CutoffHot))
	}
}

// markAllPreinlined is --mark-all-context-preinlined for a profile without
// contexts: llvm-profgen 22 marks every profile, inlinees too,
// ContextShouldBeInlined, and the profile pre-inlined.
func markAllPreinlined(prof *sampleprof.Profile) {
	for _, f := range prof.Functions {
		sampleprof.AddAttributes(f, sampleprof.ContextShouldBeInlined)
	}
	prof.PreInlined = true
}

// reportDensity prints llvm-profgen 19's density suggestion (a warning
// below the threshold) and, with --show-density, the density line.
func reportDensity(stderr, stdout io.Writer, d *DensityOptions, density float64) {
	switch {
	case density == 0:
		fmt.Fprintln(stderr, "warning: The output profile is empty or the --profile-density-cutoff-hot option is set too low. Please check your command.")
	case density < d.Threshold:
		fmt.Fprintf(stderr, "warning: Sample PGO is estimated to optimize better with %.1fx more samples. "+
			"Please consider increasing sampling rate or profiling for longer duration to get more samples.\n", d.Threshold/density)
	}
	if d.Show {
		fmt.Fprintf(stdout, "Functions with density >= %.1f account for %.2f%% total sample counts.\n", density, float64(d.CutoffHot)/10000)
	}
}

// sampleProfileAgain is an LLVM sample profile (--llvm-sample-profile)
// written again as llvm-profgen does: a CS one through the steps of
// generated contexts (csFromSampleProfile), a flat one with ambiguous
// functions dropped, the density checked, the binary's symbol list and
// discriminator kind.
func sampleProfileAgain(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	prof := in.profile
	if prof.CS {
		var err error
		if prof, err = csFromSampleProfile(o, bins, prof); err != nil {
			return nil, err
		}
		return []profileFile{sampleProfileFile(o, 0, prof)}, nil
	}
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, err
	}
	prof.FSDiscriminators = bins.generateOptions(0).FSDiscriminators
	finishProfile(o, sym, prof)
	return []profileFile{sampleProfileFile(o, 0, prof)}, nil
}
