package driver

import (
	"io"
	"iter"

	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/pprofout"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/sampleprof"
)

// The rows of outputTable for LBR counters and call stacks.

// lbrFiles are the files of a row of LBR counts: for each binary with
// samples counted (the one binary, whatever it counted), the file build
// makes of its counts with that binary alone, as a run given it as the
// one --binary would.
func lbrFiles(o *output, bins *binaries, in *profileInput, build func(one *binaries, c lbrCounts) (profileFile, error)) ([]profileFile, error) {
	var files []profileFile
	for i, c := range in.lbr {
		if c.used(o) == 0 && len(in.lbr) > 1 {
			continue // said in the summary; the other binaries' files are written
		}
		f, err := build(bins.only(i), c)
		if err != nil {
			return nil, err
		}
		f.bin = i
		files = append(files, f)
	}
	return files, nil
}

// lbrSampleProfile is the sample profile of LBR counters.
func lbrSampleProfile(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	trace := o.DataAccessTrace
	if in.noDataAccess {
		trace = ""
	}
	return lbrFiles(o, bins, in, func(one *binaries, c lbrCounts) (profileFile, error) {
		prof, err := lbrProfile(o, one, c.counters, trace)
		if err != nil {
			return profileFile{}, err
		}
		return sampleProfileFile(o, 0, prof), nil
	})
}

// lbrAddressProfile is LBR counters unsymbolized, in llvm-profgen's format.
func lbrAddressProfile(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	return lbrFiles(o, bins, in, func(one *binaries, c lbrCounts) (profileFile, error) {
		base := o.LLVM.unsymbolizedBase(one.primary())
		return profileFile{write: func(w io.Writer) error { return rawprof.Write(w, c.counters, base) }}, nil
	})
}

// lbrProfile turns LBR counters into a sample profile, as llvm-profgen
// does for profiles without context: probe-based for a binary with pseudo
// probes, line-based otherwise and for GCC (whose profile keys are lines).
func lbrProfile(o *output, bins *binaries, c *generate.Counters, trace string) (*sampleprof.Profile, error) {
	if usePseudoProbes(o.plan, bins) && o.format != formatGCC {
		if trace != "" {
			return nil, errDataAccessMode
		}
		return probeProfile(o, bins, c)
	}
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, err
	}
	gopts := lbrGenerateOptions(o.plan, bins, sym)
	if trace != "" {
		if gopts.DataAccesses, err = dataAccesses(o.plan, bins, trace); err != nil {
			return nil, err
		}
	}
	prof := generate.Profile(*c, instSizes{bins.primary()}, sym, gopts)
	prof.FSDiscriminators = gopts.FSDiscriminators
	finishProfile(o, sym, prof)
	return prof, nil
}

// stackPprof is the pprof profile of call stacks: one file for every
// binary.
func stackPprof(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	pbs := make([]pprofout.Binary, len(bins.files))
	for i, f := range bins.files {
		sym, err := bins.stackSymbolizer(i)
		if err != nil {
			return nil, err
		}
		start, limit, off := f.ExecSpan()
		pbs[i] = pprofout.Binary{Path: f.Path(), BuildID: f.BuildIDHex(), Start: start, Limit: limit, Offset: off, Symbolizer: sym,
			KeepWrappers: o.NoFoldWrappers, FoldKernel: foldsKernel(o.plan, f), OmitGoexit: f.IsGo() && !o.KeepGoexit}
	}
	p := pprofout.Build(in.stacks, pbs)
	return oneFile(func(w io.Writer) error { return pprofout.Write(w, p) }), nil
}

// foldsKernel reports whether pprof leaves out the kernel and vDSO frames
// above f's frames: with --fold-kernel, and for a Go binary (as Go's
// profiler records them: its SIGPROF names the user PC) unless
// --no-fold-kernel.
func foldsKernel(p *plan, f Binary) bool {
	return p.FoldKernel || f.IsGo() && !p.NoFoldKernel
}

// stackSampleProfiles are the LLVM sample profiles of call stacks, one per
// binary that has samples.
func stackSampleProfiles(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	warnLineBasedProbes(o.plan, bins)
	gbs := make([]generate.StackBinary, len(bins.files))
	for i := range bins.files {
		sym, err := bins.symbolizer(i)
		if err != nil {
			return nil, err
		}
		gbs[i] = stackCounting(o.plan)
		gbs[i].Sym, gbs[i].Code, gbs[i].Opts = sym, bins.files[i], bins.generateOptions(i)
	}
	profs := generate.StackProfiles(in.stacks, gbs)
	var files []profileFile
	for i := range bins.files {
		if in.stacks.Stats.PerBinary[i] == 0 && len(bins.files) > 1 {
			continue // said in the summary; the other binaries' profiles are written
		}
		files = append(files, sampleProfileFile(o, i, profs[i]))
	}
	return files, nil
}

// instSizes adapts the binary's instruction walk to the generator's.
type instSizes struct{ bin Binary }

func (c instSizes) Insts(first, last uint64) iter.Seq2[uint64, uint64] {
	return func(yield func(uint64, uint64) bool) {
		for in := range c.bin.Insts(first, last) {
			if !yield(in.Addr, uint64(in.Size)) {
				return
			}
		}
	}
}
