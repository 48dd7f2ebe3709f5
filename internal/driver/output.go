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
func lbrFiles(opts Options, bins *binaries, in *profileInput, build func(one *binaries, c lbrCounts) (profileFile, error)) ([]profileFile, error) {
	var files []profileFile
	for i, c := range in.lbr {
		if c.used(opts) == 0 && len(in.lbr) > 1 {
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
func lbrSampleProfile(opts Options, bins *binaries, in *profileInput) ([]profileFile, error) {
	if in.noDataAccess {
		opts.DataAccessTrace = ""
	}
	return lbrFiles(opts, bins, in, func(one *binaries, c lbrCounts) (profileFile, error) {
		prof, err := lbrProfile(opts, one, c.counters)
		if err != nil {
			return profileFile{}, err
		}
		return sampleProfileFile(opts, 0, prof), nil
	})
}

// lbrAddressProfile is LBR counters unsymbolized, in llvm-profgen's format.
func lbrAddressProfile(opts Options, bins *binaries, in *profileInput) ([]profileFile, error) {
	return lbrFiles(opts, bins, in, func(one *binaries, c lbrCounts) (profileFile, error) {
		base := opts.LLVM.unsymbolizedBase(one.primary())
		return profileFile{write: func(w io.Writer) error { return rawprof.Write(w, c.counters, base) }}, nil
	})
}

// lbrProfile turns LBR counters into a sample profile, as llvm-profgen
// does for profiles without context: probe-based for a binary with pseudo
// probes, line-based otherwise and for GCC (whose profile keys are lines).
func lbrProfile(opts Options, bins *binaries, c *generate.Counters) (*sampleprof.Profile, error) {
	if usePseudoProbes(opts, bins) && formatOf(opts) != formatGCC {
		if opts.DataAccessTrace != "" {
			return nil, errDataAccessMode
		}
		return probeProfile(opts, bins, c)
	}
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, err
	}
	gopts := lbrGenerateOptions(opts, bins, sym)
	if opts.DataAccessTrace != "" {
		if gopts.DataAccesses, err = dataAccesses(opts, bins); err != nil {
			return nil, err
		}
	}
	prof := generate.Profile(*c, instSizes{bins.primary()}, sym, gopts)
	prof.FSDiscriminators = gopts.FSDiscriminators
	finishProfile(opts, sym, prof)
	return prof, nil
}

// stackPprof is the pprof profile of call stacks: one file for every
// binary.
func stackPprof(opts Options, bins *binaries, in *profileInput) ([]profileFile, error) {
	pbs := make([]pprofout.Binary, len(bins.files))
	for i, f := range bins.files {
		sym, err := bins.stackSymbolizer(i)
		if err != nil {
			return nil, err
		}
		start, limit, off := f.ExecSpan()
		pbs[i] = pprofout.Binary{Path: f.Path(), BuildID: f.BuildIDHex(), Start: start, Limit: limit, Offset: off, Symbolizer: sym,
			KeepWrappers: opts.NoFoldWrappers, FoldKernel: foldsKernel(opts, f), OmitGoexit: f.IsGo() && !opts.KeepGoexit}
	}
	p := pprofout.Build(in.stacks, pbs)
	return oneFile(func(w io.Writer) error { return pprofout.Write(w, p) }), nil
}

// foldsKernel reports whether pprof leaves out the kernel and vDSO frames
// above f's frames: with --fold-kernel, and for a Go binary (as Go's
// profiler records them: its SIGPROF names the user PC) unless
// --no-fold-kernel.
func foldsKernel(opts Options, f Binary) bool {
	return opts.FoldKernel || f.IsGo() && !opts.NoFoldKernel
}

// stackSampleProfiles are the LLVM sample profiles of call stacks, one per
// binary that has samples.
func stackSampleProfiles(opts Options, bins *binaries, in *profileInput) ([]profileFile, error) {
	warnLineBasedProbes(opts, bins)
	gbs := make([]generate.StackBinary, len(bins.files))
	for i := range bins.files {
		sym, err := bins.symbolizer(i)
		if err != nil {
			return nil, err
		}
		gbs[i] = stackCounting(opts)
		gbs[i].Sym, gbs[i].Code, gbs[i].Opts = sym, bins.files[i], bins.generateOptions(i)
	}
	profs := generate.StackProfiles(in.stacks, gbs)
	var files []profileFile
	for i := range bins.files {
		if in.stacks.Stats.PerBinary[i] == 0 && len(bins.files) > 1 {
			continue // said in the summary; the other binaries' profiles are written
		}
		files = append(files, sampleProfileFile(opts, i, profs[i]))
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

func inputName(opts Options) string {
	for _, n := range []string{opts.PerfData, opts.PerfScript, opts.UnsymbolizedProfile, opts.LLVMSampleProfile} {
		if n == "-" {
			return "<stdin>"
		}
		if n != "" {
			return n
		}
	}
	return ""
}
