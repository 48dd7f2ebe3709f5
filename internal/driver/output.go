package driver

import (
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/generate"
	"github.com/profgen/profgen/internal/pprofout"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/sampleprof"
)

// write chooses the output by what the input held: branch stacks give the
// LBR profile (with --leading-ip-only, of every sample's IP once one
// sample has a branch stack, as llvm-profgen 19), call stacks the
// call-stack one; nothing usable is an error and writes nothing.
func write(opts Options, bins *binaries, res *result) error {
	switch {
	case res.hybrid.cs() && res.hybrid.sum.Samples > 0:
		return writeCS(opts, bins, res.hybrid)
	case res.lbr.Agg.Samples > 0 && res.lbr.Samples > res.lbr.IPOnly:
		if !res.hybrid.lbrOnly() {
			// llvm-profgen 22 puts the vtable loads in the counters of
			// branch stacks alone, not in those of hybrid samples.
			opts.DataAccessTrace = ""
		}
		return writeLBR(opts, bins, res.lbr.Counters)
	case res.stacks.Stats.Used > 0:
		return writeStacks(opts, bins, res)
	}
	return res.noSamplesError(opts, bins)
}

// writeLBR writes LBR counters: unsymbolized, or as a sample profile.
func writeLBR(opts Options, bins *binaries, c *generate.Counters) error {
	if opts.Format == "pprof" {
		return fmt.Errorf("%s holds branch stacks (LBR) without call chains: --format=pprof needs perf record -g", inputName(opts))
	}
	path, err := OutputPath(opts.Output, bins.primary().Path(), 1)
	if err != nil {
		return err
	}
	if opts.SkipSymbolization {
		return writeFile(path, func(w io.Writer) error {
			return rawprof.Write(w, c, opts.LLVM.unsymbolizedBase(bins.primary()))
		})
	}
	prof, err := lbrProfile(opts, bins, c)
	if err != nil {
		return err
	}
	return writeSampleProfile(opts, path, prof)
}

// lbrProfile turns LBR counters into a sample profile, as llvm-profgen
// does for profiles without context: probe-based for a binary with pseudo
// probes, line-based otherwise.
func lbrProfile(opts Options, bins *binaries, c *generate.Counters) (*sampleprof.Profile, error) {
	if usePseudoProbes(opts, bins) {
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

// convertUnsymbolized reads an unsymbolized profile and writes it again,
// symbolized or not.
func convertUnsymbolized(opts Options, bins *binaries) error {
	in, name, closeIn, err := openUnsymbolized(opts)
	if err != nil {
		return err
	}
	defer closeIn()
	in, stacks, err := peekAddressProfile(in)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if stacks {
		return convertAddressProfile(opts, bins, in, name)
	}
	if len(bins.files) > 1 {
		return usagef("%s is an unsymbolized profile of LBR input, of one --binary; %d were given", name, len(bins.files))
	}
	if opts.Format == "pprof" {
		return usagef("--unsymbolized-profile holds LBR ranges; --format=pprof needs call stacks")
	}
	ctxs, cs, err := rawprof.ReadCS(in, name, opts.LLVM.unsymbolizedBase(bins.primary()))
	if err != nil {
		return err
	}
	if cs {
		return convertUnsymbolizedCS(opts, bins, name, ctxs)
	}
	if len(ctxs) == 0 { // llvm-profgen 19 crashes
		return fmt.Errorf("%s: %w: the file is empty", name, ErrNoSamples)
	}
	c := aggregate.NewCounters()
	for _, ctx := range ctxs {
		c.Add(ctx.Counters)
	}
	return writeLBR(opts, bins, c) // no range or branch ("0\n0"): an empty profile, as llvm-profgen
}

func openUnsymbolized(opts Options) (io.Reader, string, func(), error) {
	if opts.UnsymbolizedProfile == "-" {
		return opts.Stdin, "<stdin>", func() {}, nil
	}
	f, err := os.Open(opts.UnsymbolizedProfile)
	if err != nil {
		return nil, "", nil, err
	}
	return f, opts.UnsymbolizedProfile, func() { f.Close() }, nil
}

// writeStacks writes the call-stack profile: one pprof profile, or one
// LLVM sample profile per binary.
func writeStacks(opts Options, bins *binaries, res *result) error {
	if opts.SkipSymbolization {
		return writeAddressProfile(opts, bins, res.stacks)
	}
	if opts.Format == "pprof" {
		return writePprof(opts, bins, res)
	}
	warnLineBasedProbes(opts, bins)
	return writeStackProfiles(opts, bins, res)
}

func writePprof(opts Options, bins *binaries, res *result) error {
	pbs := make([]pprofout.Binary, len(bins.files))
	for i, f := range bins.files {
		sym, err := bins.stackSymbolizer(i)
		if err != nil {
			return err
		}
		start, limit, off := f.ExecSpan()
		pbs[i] = pprofout.Binary{Path: f.Path(), BuildID: f.BuildIDHex(), Start: start, Limit: limit, Offset: off, Symbolizer: sym,
			KeepWrappers: opts.NoFoldWrappers, FoldKernel: foldsKernel(opts, f), OmitGoexit: f.IsGo() && !opts.KeepGoexit}
	}
	p := pprofout.Build(res.stacks, pbs)
	return writeFile(opts.Output, func(w io.Writer) error { return pprofout.Write(w, p) })
}

// foldsKernel reports whether pprof leaves out the kernel and vDSO frames
// above f's frames: with --fold-kernel, and for a Go binary (as Go's
// profiler records them: its SIGPROF names the user PC) unless
// --no-fold-kernel.
func foldsKernel(opts Options, f Binary) bool {
	return opts.FoldKernel || f.IsGo() && !opts.NoFoldKernel
}

func writeStackProfiles(opts Options, bins *binaries, res *result) error {
	gbs := make([]generate.StackBinary, len(bins.files))
	for i := range bins.files {
		sym, err := bins.symbolizer(i)
		if err != nil {
			return err
		}
		gbs[i] = stackCounting(opts)
		gbs[i].Sym, gbs[i].Code, gbs[i].Opts = sym, bins.files[i], bins.generateOptions(i)
	}
	profs := generate.StackProfiles(res.stacks, gbs)
	for i, f := range bins.files {
		if res.stacks.Stats.PerBinary[i] == 0 && len(bins.files) > 1 {
			continue // said in the summary; the other binaries' profiles are written
		}
		path, err := OutputPath(opts.Output, f.Path(), len(bins.files))
		if err != nil {
			return err
		}
		if err := writeSampleProfile(opts, path, profs[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeSampleProfile writes prof in --format; --use-md5 of another format
// than extbinary is ignored with llvm-profgen's warning.
func writeSampleProfile(opts Options, path string, prof *sampleprof.Profile) error {
	format, err := sampleprof.ParseFormat(opts.Format)
	if err != nil {
		return usagef("--format: %v", err)
	}
	md5 := opts.UseMD5
	if md5 && format != sampleprof.FormatExtBinary {
		fmt.Fprintln(opts.Stderr, "warning: -use-md5 is ignored. Specify --format=extbinary to enable it")
		md5 = false
	}
	return writeFile(path, func(w io.Writer) error {
		return sampleprof.WriteOptions{UseMD5: md5, VTables: opts.WriteVTables}.Write(w, prof, format)
	})
}

// OutputPath names the LLVM profile of binary. With one binary, out is the
// file. With several: out containing "%b" is a pattern (%b = the binary's
// base name), an existing directory gets <base>.prof files; anything else
// is an error, so that profiles never overwrite each other.
func OutputPath(out, binary string, nbins int) (string, error) {
	base := filepath.Base(binary)
	if strings.Contains(out, "%b") {
		return strings.ReplaceAll(out, "%b", base), nil
	}
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return filepath.Join(out, base+".prof"), nil
	}
	if nbins == 1 {
		return out, nil
	}
	return "", usagef("%d binaries need one output each: make -o a directory or a pattern with %%b", nbins)
}

// checkOutput refuses, before any work, an output that cannot be written:
// a missing directory, or several binaries' LLVM profiles into one file.
func checkOutput(opts Options) error { return checkOutputOf(opts, opts.Binaries) }

// checkFoundOutput is checkOutput for the binaries found by build id.
func checkFoundOutput(opts Options, refs []binaryRef) error {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.name
	}
	return checkOutputOf(opts, names)
}

// checkOutputOf is checkOutput for the profiles of these binaries.
func checkOutputOf(opts Options, binaries []string) error {
	if opts.Output == "-" {
		return nil
	}
	outs := []string{opts.Output}
	if opts.Format != "pprof" && !opts.SkipSymbolization {
		outs = outs[:0]
		for _, b := range binaries {
			p, err := OutputPath(opts.Output, b, len(binaries))
			if err != nil {
				return err
			}
			outs = append(outs, p)
		}
	}
	for _, p := range outs {
		if err := atomicfile.CheckWritable(p); err != nil {
			return &UsageError{Msg: err.Error()}
		}
	}
	return nil
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

func writeFile(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

func inputName(opts Options) string {
	for _, n := range []string{opts.PerfData, opts.PerfScript, opts.UnsymbolizedProfile} {
		if n == "-" {
			return "<stdin>"
		}
		if n != "" {
			return n
		}
	}
	return ""
}
