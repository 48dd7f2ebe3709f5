package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/driver"
)

// rootOptions are the llvm-profgen compatible flags of the root command.
type rootOptions struct {
	driver.Options
	llvm llvmProfgenFlags
	cs   driver.CSOptions
}

// AddFlags registers the flags; names and defaults follow llvm-profgen.
func (o *rootOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.PerfScript, "perfscript", "", "perf script text: LBR, call-stack or hybrid samples (`-` for stdin)")
	fs.StringVar(&o.PerfScript, "ps", "", "alias for --perfscript")
	fs.StringVar(&o.PerfData, "perfdata", "", "perf.data file (file or pipe mode, perf record -z too), read without perf")
	fs.StringVar(&o.PerfData, "pd", "", "alias for --perfdata")
	fs.StringVar(&o.UnsymbolizedProfile, "unsymbolized-profile", "", "unsymbolized or address profile (--skip-symbolization output, merged or not) as input")
	fs.StringVar(&o.UnsymbolizedProfile, "up", "", "alias for --unsymbolized-profile")
	fs.StringArrayVar(&o.Profiles, "profile", nil, "a continuous profiler's profile: pprof (gzipped or not) or OTLP profiles (v1development), or a directory of them, read one file at a time (repeatable; docs/continuous-profilers.md)")
	fs.StringVar(&o.SampleType, "sample-type", "", "--profile: the sample type to read, TYPE or TYPE/UNIT (default: CPU samples, else CPU nanoseconds)")
	fs.StringVar(&o.PerfBinary, "perf-binary", "", "perf executable used with --use-perf-script (default: perf on PATH)")
	fs.BoolVar(&o.UsePerfScript, "use-perf-script", false, "read --perfdata through perf script (the fallback) instead of natively")
	fs.StringArrayVar(&o.Binaries, "binary", nil, "the profiled ELF binary (repeat for several binaries: a profile of each); without it, every binary sampled is found by its build id (docs/binaries.md)")
	fs.StringArrayVar(&o.BinaryDirs, "binary-dir", nil, "without --binary: a directory to find binaries in by build id, flat or a perf build-id cache (repeatable; default ~/.debug), before the debuginfod servers of $DEBUGINFOD_URLS")
	fs.StringVar(&o.DebugBinary, "debug-binary", "", "DWARF kept in a separate file (objcopy --only-keep-debug)")
	fs.StringVarP(&o.Output, "output", "o", "", "output file (`-` for stdout); for several binaries a directory or a pattern with %b")
	fs.StringVar(&o.Format, "format", "extbinary", "output format: extbinary, binary, text, gcc (GCC AutoFDO, docs/gcc.md), pprof (call-stack input), bolt or bolt-preagg (BOLT's perf2bolt profiles, docs/bolt.md), propeller (Propeller's cc_profile.txt and ld_profile.txt: -o DIR/ or -o PREFIX, docs/propeller.md)")
	fs.StringVar(&o.Propeller.CCVersion, "propeller-cc-version", "", "--format=propeller: the cc profile's format: v1 (clang 18 and later; the default) or v0 (older clang)")
	fs.BoolVar(&o.Propeller.Edges, "propeller-edges", false, "--format=propeller: add the block and edge counts (g lines of the cc profile v1: clang 22 reads them, clang 19 aborts on them)")
	fs.Var(&alsoFlag{&o.Also}, "also", "also write the same input as FORMAT (a --format value) into PATH (a file, directory or %b pattern as -o), from the same read of the input (repeatable; docs/outputs.md)")
	fs.BoolVar(&o.SkipSymbolization, "skip-symbolization", false, "write the address profile, before symbolization: llvm-profgen's unsymbolized profile (ranges and branches) of LBR input, profgen's address profile of call stacks (docs/address-profile.md)")
	fs.BoolVar(&o.UseMD5, "use-md5", false, "extbinary: MD5 function names")
	fs.Int32SliceVar(&o.PIDs, "pid", nil, "keep only samples of these processes (repeatable or comma-separated)")
	fs.StringVar(&o.PerfEvent, "perf-event", "", "keep only samples of this perf event (default: all)")
	fs.BoolVarP(&o.Quiet, "quiet", "q", false, "no summary on stderr")
	fs.StringVar(&o.CallCounts, "call-counts", "estimate", "call stacks to LLVM profiles: head samples and call targets as estimated calls (estimate), as estimated executions times the call line's instructions (executions), samples below each call (inclusive), or none")
	fs.StringVar(&o.BodyCounts, "body-counts", "block-max", "call stacks to LLVM profiles: a line's body samples as its hits, at least those of the most hit line of its basic block (block-max), as its hits (hits), its hits per instruction (per-instruction), or its instructions' shares of their basic blocks' hits (blocks)")
	fs.BoolVar(&o.NoZeroUnsampledLines, "no-zero-unsampled-lines", false, "call stacks to LLVM profiles: leave out the lines of sampled functions that no sample hit (unknown to the compiler) instead of writing them with zero counts, as llvm-profgen's LBR profiles have them")
	fs.BoolVar(&o.FoldKernel, "fold-kernel", false, "pprof: leave out the kernel and vDSO frames above every binary's frames, their samples going to its innermost frame, as Go's profiler records them (the default for Go binaries)")
	fs.BoolVar(&o.NoFoldKernel, "no-fold-kernel", false, "pprof of a Go binary: keep the kernel and vDSO frames above its frames, as perf recorded them")
	fs.BoolVar(&o.KeepGoexit, "keep-goexit", false, "pprof of a Go binary: keep runtime.goexit, the root frame of goroutine stacks in perf's call chains, which Go's profiler leaves out")
	fs.BoolVar(&o.NoFoldWrappers, "no-fold-wrappers", false, "pprof: keep the frames of Go's generated wrappers (method values' -fm, promoted methods), which Go's profiler leaves out")
	fs.BoolVar(&o.GoDWARF, "go-dwarf", false, "pprof: symbolize Go code from its DWARF rather than from the pclntab Go's runtime reads (the same frames, but that Go's DWARF names no file for inlined functions)")
	fs.BoolVar(&o.NoRepairSkid, "no-repair-skid", false, "call stacks: keep the call chains as perf's frame-pointer walk recorded them (no missing frames inferred)")
	fs.BoolVar(&o.UseDwarfCorrelation, "use-dwarf-correlation", false, "line-based profile from DWARF even when the binary has pseudo probes")
	fs.StringVar(&o.DataAccessTrace, "data-access-perftrace", "", "perf report -D trace of memory-access samples (perf record -d): vtable loads become vtable type counts (LLVM 22; line-based profiles without contexts)")
	fs.BoolVar(&o.WriteVTables, "extbinary-write-vtable-type-prof", false, "extbinary: keep the vtable type counts (LLVM 22; dropped without it)")
	fs.BoolVar(&o.ShowPseudoProbe, "show-pseudo-probe", false, "print the pseudo-probe descriptors (.pseudo_probe_desc) on stdout; with --show-disassembly-only, the probes of each instruction too")
	addGCCFlags(fs, &o.GCC)
	o.llvm.addLLVMProfgenFlags(fs, &o.Options)
	addCSFlags(fs, &o.cs)
	o.CS = &o.cs
	fs.IntVarP(&o.Jobs, "jobs", "j", 0, "parse and aggregate with this many workers (default: one per CPU); the output is the same for any number")
	_ = fs.MarkHidden("pd")
	_ = fs.MarkHidden("ps")
	_ = fs.MarkHidden("up")
}

// newRootCommand returns the root command: the perf-to-profile conversion,
// a drop-in for llvm-profgen, with the other commands below it.
func newRootCommand() *cobra.Command {
	opts := &rootOptions{}
	cmd := &cobra.Command{
		Use:           "profgen",
		Short:         "Convert perf samples and instrumentation profiles for compilers",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Stdin, opts.Stdout, opts.Stderr = cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()
			if err := opts.llvm.apply(cmd.Flags(), &opts.Options); err != nil {
				return err
			}
			setGCPercent(conversionGCPercent(opts.Options))
			return driver.Run(cmd.Context(), opts.Options)
		},
	}
	opts.AddFlags(cmd.Flags())
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addCPUProfileFlag(cmd)
	addProfdataCommands(cmd)
	return cmd
}

// llvmStyleArgs accepts llvm-profgen's single-dash long options
// (-perfscript=x, -skip-symbolization) by giving them a second dash.
func llvmStyleArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if len(a) > 2 && a[0] == '-' && a[1] >= 'a' && a[1] <= 'z' && !isShortWithValue(a) {
			a = "-" + a
		}
		out = append(out, a)
	}
	return out
}

// isShortWithValue reports whether a is a short flag with its value
// attached, like -ofile.
func isShortWithValue(a string) bool { return a[1] == 'o' && !strings.HasPrefix(a, "-output") }

// alsoFlag is --also FORMAT=PATH, repeatable.
type alsoFlag struct{ outs *[]driver.AlsoOutput }

func (f *alsoFlag) Set(v string) error {
	format, path, ok := strings.Cut(v, "=")
	if !ok || format == "" || path == "" {
		return fmt.Errorf("%q: want FORMAT=PATH (--also bolt=app.fdata)", v)
	}
	*f.outs = append(*f.outs, driver.AlsoOutput{Format: format, Output: path})
	return nil
}

func (f *alsoFlag) String() string {
	var parts []string
	for _, o := range *f.outs {
		parts = append(parts, o.Format+"="+o.Output)
	}
	return strings.Join(parts, ",")
}

func (f *alsoFlag) Type() string { return "FORMAT=PATH" }
