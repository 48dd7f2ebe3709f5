// Package driver is profgen's perf-to-profile pipeline in one place. Every
// sample kind flows through it: branch stacks (LBR, BRBE), call stacks
// (perf record -g) and samples carrying both.
//
// In: Options (file names, flags). Flow: perfscript (text, or perf.data
// through perf script) → addrspace (per-process mappings) → aggregate
// (branch counters and call stacks side by side) → symbolize → generate,
// pprofout or rawprof → atomicfile. Out: the output file(s), written whole
// or not at all, and a summary of what was used and dropped on stderr.
package driver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// Options says what to convert.
type Options struct {
	PerfScript          string // perf script text; "-" for standard input
	PerfData            string // or a perf.data file, read natively (or through perf script)
	UnsymbolizedProfile string // or an unsymbolized profile (--skip-symbolization output)
	PerfBinary          string // perf executable for PerfData ("" = perf on PATH)
	LLVMSampleProfile   string // or an LLVM sample profile, written again (--llvm-sample-profile)
	UsePerfScript       bool   // read PerfData through perf script, not natively

	Binaries    []string // the profiled ELF binaries; none: those sampled, found by build id
	DebugBinary string   // DWARF of the (one) binary in a separate file
	// BinaryDirs are where binaries are found by build id without
	// Binaries (perf's build-id cache, ~/.debug, when none), before the
	// debuginfod servers of DEBUGINFOD_URLS.
	BinaryDirs []string

	Output            string       // file, "-" for stdout; a directory or %b pattern for several binaries
	Format            string       // extbinary (default), binary, text, pprof, gcc, bolt, bolt-preagg
	Also              []AlsoOutput // more outputs of the same read of the input (--also FORMAT=PATH, outputset.go)
	SkipSymbolization bool         // write the unsymbolized profile (LBR input)
	UseMD5            bool         // extbinary: MD5 function names
	PIDs              []int32
	PerfEvent         string // keep only samples of this event ("" = all)
	NoRepairSkid      bool   // keep call chains as perf unwound them (package fpskid)
	NoFoldWrappers    bool   // pprof: keep the frames of Go's generated wrappers
	GoDWARF           bool   // pprof: symbolize Go code from DWARF, not from the pclntab
	// pprof of a Go binary is Go's profiler's view by default: the kernel
	// and vDSO frames above its frames left out, their samples on its
	// innermost frame, and no runtime.goexit frames. FoldKernel folds the
	// kernel frames above every binary's frames; NoFoldKernel and
	// KeepGoexit keep perf's view of a Go binary.
	FoldKernel   bool
	NoFoldKernel bool
	KeepGoexit   bool
	CallCounts   string // call stacks to LLVM profiles: estimate (default), inclusive, none
	BodyCounts   string // call stacks to LLVM profiles: block-max (default, ""), hits, per-instruction, blocks
	// NoZeroUnsampledLines leaves the unsampled lines of sampled functions
	// out of LLVM profiles of call stacks (unknown to the compiler) instead
	// of giving them zero counts.
	NoZeroUnsampledLines bool
	Quiet                bool // no summary
	Jobs                 int  // workers parsing and aggregating (-j); 0: one per CPU
	// UseDwarfCorrelation makes the profile of a pseudo-probe binary
	// line-based, from DWARF, as the binary had no probes.
	UseDwarfCorrelation bool
	// DataAccessTrace (--data-access-perftrace, LLVM 22) is a perf report
	// -D trace of memory-access samples: the vtable loads it holds become
	// the profile's vtable type counts (dataaccess.go); line-based
	// profiles without contexts only, as llvm-profgen 22.
	DataAccessTrace string
	// WriteVTables keeps the vtable type counts in extbinary output
	// (--extbinary-write-vtable-type-prof); text output always has them.
	WriteVTables    bool
	ShowPseudoProbe bool       // print the probe descriptors on Stdout when decoding them
	CS              *CSOptions // context-sensitive profiles of hybrid samples; nil: DefaultCSOptions

	LLVM LLVMOptions // llvm-profgen's tuning and diagnostic flags
	GCC  GCCOptions  // --format=gcc: version, discriminators

	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// outputs are every output of the run, this one first (withOutputs).
	outputs []Options
}

// UsageError is a request that cannot work whatever the input: a bad flag
// value or combination. It is reported before any input is read.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// ErrNoSamples is wrapped by the error of a run that found nothing usable.
var ErrNoSamples = errors.New("no usable samples")

// Run converts the input as opts says: the whole pipeline.
func Run(ctx context.Context, opts Options) error {
	opts = withOutputs(opts)
	if err := validate(opts); err != nil {
		return err
	}
	timer := newPhaseTimer(opts)
	defer timer.print()
	timer.phase("Load binary")
	bins, err := openBinaries(ctx, opts)
	if err != nil {
		return err
	}
	defer bins.Close()
	if opts.LLVM.ShowDisassemblyOnly {
		return showListing(opts, bins)
	}
	timer.phase("Read input")
	var in *profileInput
	switch {
	case opts.UnsymbolizedProfile != "":
		in, err = unsymbolizedProfile(opts, bins)
	case opts.LLVMSampleProfile != "":
		in, err = sampleProfile(opts)
	default:
		in, err = recordingProfile(ctx, opts, bins, timer)
	}
	if err != nil {
		return err
	}
	prog := stageProgress(opts, "symbolizing and writing")
	defer prog.Done()
	return writeProfiles(opts, bins, in)
}

func withDefaults(opts Options) Options {
	if opts.Format == "" {
		opts.Format = "extbinary"
	}
	if opts.Stdin == nil {
		opts.Stdin = os.Stdin
	}
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil || opts.Quiet {
		opts.Stderr = io.Discard
	}
	if opts.CS == nil {
		cs := DefaultCSOptions()
		opts.CS = &cs
	}
	return withGCCDefaults(opts)
}

// validate refuses what cannot work on any input, before reading any.
func validate(opts Options) error {
	if err := validateInputs(opts); err != nil {
		return err
	}
	if err := validateOutputs(opts); err != nil {
		return err
	}
	if !slices.Contains([]string{"", "block-max", "hits", "per-instruction", "blocks"}, opts.BodyCounts) {
		return usagef("--body-counts: %q is none of block-max, hits, per-instruction, blocks", opts.BodyCounts)
	}
	if _, ok := callCounts[opts.CallCounts]; !ok {
		return usagef("--call-counts: %q is none of estimate, executions, inclusive, none", opts.CallCounts)
	}
	return checkOutput(opts)
}

// validateOutput refuses an output that no input could give.
func validateOutput(opts Options) error {
	if err := validateCS(opts.CS); err != nil {
		return err
	}
	if err := checkFormat(opts.Format); err != nil {
		return err
	}
	if err := validateGCC(opts); err != nil {
		return err
	}
	switch {
	case opts.SkipSymbolization && opts.Format == "pprof":
		return usagef("--skip-symbolization writes an unsymbolized (address) profile; --format=pprof does not apply")
	case formatColumns[formatNamed(opts.Format)].traces && (opts.SkipSymbolization || opts.LLVM.LeadingIPOnly):
		return usagef("--format=%s writes BOLT's profile of whole branch stacks; --skip-symbolization and --leading-ip-only do not apply", opts.Format)
	case opts.DebugBinary != "" && len(opts.Binaries) > 1:
		return usagef("--debug-binary applies to one --binary; %d were given", len(opts.Binaries))
	case opts.UseMD5 && opts.Format == "pprof":
		return usagef("--use-md5 applies to LLVM sample profiles, not pprof")
	case opts.FoldKernel && opts.NoFoldKernel:
		return usagef("--fold-kernel and --no-fold-kernel contradict each other")
	}
	return nil
}

func validateInputs(opts Options) error {
	n := 0
	for _, in := range []string{opts.PerfScript, opts.PerfData, opts.UnsymbolizedProfile, opts.LLVMSampleProfile} {
		if in != "" {
			n++
		}
	}
	switch {
	case len(opts.Binaries) == 0 && (opts.PerfData == "" && opts.PerfScript == "" || opts.LLVM.ShowDisassemblyOnly):
		return usagef("--binary is required (binaries are found by build id only for --perfdata and --perfscript)")
	case len(opts.Binaries) == 0 && opts.DebugBinary != "":
		return usagef("--debug-binary applies to a --binary")
	case len(opts.Binaries) > 0 && len(opts.BinaryDirs) > 0:
		return usagef("--binary-dir is where binaries are found without --binary; give one or the other")
	case opts.Output == "":
		return usagef("--output is required")
	case n != 1 && !(n == 0 && opts.LLVM.ShowDisassemblyOnly):
		return usagef("give exactly one of --perfscript, --perfdata, --unsymbolized-profile and --llvm-sample-profile")
	case slices.Contains(opts.Binaries, ""):
		return usagef("--binary: empty path")
	}
	return nil
}
