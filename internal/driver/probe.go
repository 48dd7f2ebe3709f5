package driver

import (
	"debug/elf"
	"errors"
	"fmt"

	"github.com/profgen/profgen/internal/binary/pseudoprobe"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// usePseudoProbes tells whether the LBR profile of the primary binary is
// probe-based: it has both probe sections and --use-dwarf-correlation was
// not given (llvm-profgen's ProfiledBinary::checkPseudoProbe).
func usePseudoProbes(p *plan, bins *binaries) bool {
	return !p.UseDwarfCorrelation && pseudoprobe.In(bins.primary().ELF())
}

// probeProfile turns LBR counters into a probe-based sample profile;
// --show-pseudo-probe prints the probe descriptors on stdout, as
// llvm-profgen does when it decodes them.
func probeProfile(o *output, bins *binaries, c *generate.Counters) (*sampleprof.Profile, error) {
	f := bins.primary()
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, err
	}
	pb, err := probeBinary(bins)
	if err != nil {
		return nil, err
	}
	prof, descs, err := generate.ProbeProfile(*c, instSizes{f}, sym, pb, lbrGenerateOptions(o.plan, bins, sym).ZeroRanges)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path(), err)
	}
	if err := showPseudoProbes(o.plan, descs); err != nil {
		return nil, err
	}
	if o.LLVM.UpdateTotalSamples {
		for _, f := range prof.Functions {
			sampleprof.UpdateTotalSamples(f)
		}
	}
	prof.FSDiscriminators = bins.generateOptions(0).FSDiscriminators
	finishProfile(o, sym, prof)
	return prof, nil
}

// probeBinary reads the probe sections and the ELF symbols of the primary
// binary.
func probeBinary(bins *binaries) (generate.ProbeBinary, error) {
	f := bins.primary()
	desc, probes, err := pseudoprobe.Sections(f.ELF())
	if err != nil {
		return generate.ProbeBinary{}, fmt.Errorf("%s: %w", f.Path(), err)
	}
	syms, err := f.ELF().Symbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return generate.ProbeBinary{}, fmt.Errorf("%s: symbols: %w", f.Path(), err)
	}
	pb := generate.ProbeBinary{Desc: desc, Probes: probes, Symbols: make([]symbolize.Symbol, len(syms))}
	for i, s := range syms {
		pb.Symbols[i] = symbolize.Symbol{Addr: s.Value, Name: s.Name, Size: s.Size}
	}
	return pb, nil
}

// showPseudoProbes prints the probe descriptors on stdout with
// --show-pseudo-probe, as llvm-profgen does when it decodes them.
func showPseudoProbes(p *plan, descs *pseudoprobe.Descs) error {
	if !p.ShowPseudoProbe {
		return nil
	}
	return descs.Print(p.Stdout)
}

// warnLineBasedProbes warns, for each binary with pseudo probes, that the
// call-stack profile written for it is line-based: clang
// -fpseudo-probe-for-profiling reads such a profile without complaint and
// takes its line offsets for probe indexes.
func warnLineBasedProbes(p *plan, bins *binaries) {
	if p.UseDwarfCorrelation {
		return
	}
	for _, f := range bins.files {
		if pseudoprobe.In(f.ELF()) {
			fmt.Fprintf(p.Stderr, "profgen: warning: %s has pseudo probes, but call stacks without branch stacks give a line-based profile, which clang -fpseudo-probe-for-profiling would misread: record with perf record -b for a probe-based one (--use-dwarf-correlation silences this)\n", f.Path())
		}
	}
}
