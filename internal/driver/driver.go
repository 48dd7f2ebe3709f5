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
	// Profiles are continuous profilers' profiles (pprof, OTLP; package
	// contprof): files, or directories meaning every regular file in them,
	// sorted by name. Their call stacks are read one file at a time.
	Profiles []string
	// SampleType is the sample type of Profiles to read, "type/unit" or
	// "type"; "": CPU samples, else CPU time.
	SampleType string

	Binaries    []string // the profiled ELF binaries; none: those sampled, found by build id
	DebugBinary string   // DWARF of the (one) binary in a separate file
	// BinaryDirs are where binaries are found by build id without
	// Binaries (perf's build-id cache, ~/.debug, when none), before the
	// debuginfod servers of DEBUGINFOD_URLS.
	BinaryDirs []string

	Output            string       // file, "-" for stdout; a directory or %b pattern for several binaries
	Format            string       // extbinary (default), binary, text, pprof, gcc, bolt, bolt-preagg, propeller
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
	// Propeller are the flags of --format=propeller: the cc profile's
	// version, its edge counts.
	Propeller PropellerOptions

	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	// Finder finds the binaries a recording sampled by build id, without
	// Binaries; nil: BinaryDirs (or perf's build-id cache), then the
	// debuginfod servers of DEBUGINFOD_URLS (package locate).
	Finder BinaryFinder
	// BinaryCache keeps the binaries opened across runs (a library
	// caller converting many inputs of the same binaries); nil: each run
	// opens its own.
	BinaryCache *BinaryCache
	// KeepRefused writes the outputs the input can give when some are
	// refused for its kind (pprof of branch stacks, GCC of pseudo-probe
	// contexts): the refusals are in the Result instead of failing the
	// run.
	KeepRefused bool
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
	_, err := Convert(ctx, opts)
	return err
}

// Convert is the pipeline as a library: opts resolved once into a plan,
// the binaries opened, the input read into its profile, and every output
// written from it. The result says what the input gave and what was
// written.
func Convert(ctx context.Context, opts Options) (*Result, error) {
	p, err := newPlanOf(opts)
	if err != nil {
		return nil, err
	}
	return p.run(ctx)
}

// newPlanOf validates opts and resolves them into a plan.
func newPlanOf(opts Options) (*plan, error) {
	if err := validateInputs(opts); err != nil {
		return nil, err
	}
	p := newPlan(opts)
	if err := validate(opts, p); err != nil {
		return nil, err
	}
	if p.src.kind == fromProfiles {
		files, err := profileFiles(opts.Profiles)
		if err != nil {
			return nil, err
		}
		p.src.profiles, p.src.path = files, files[0]
	}
	return p, nil
}

// run is the pipeline, one call per stage.
func (p *plan) run(ctx context.Context) (*Result, error) {
	timer := newPhaseTimer(p)
	defer timer.print()
	timer.phase("Load binary")
	bins, err := openBinaries(ctx, p)
	if err != nil {
		return nil, err
	}
	defer bins.Close()
	if p.LLVM.ShowDisassemblyOnly {
		return &Result{}, showListing(p, bins)
	}
	timer.phase("Read input")
	in, err := p.readProfile(ctx, bins, timer)
	if err != nil {
		return nil, err
	}
	prog := stageProgress(p, "symbolizing and writing")
	defer prog.Done()
	return writeProfiles(p, bins, in)
}

// readProfile is the profile the source gives.
func (p *plan) readProfile(ctx context.Context, bins *binaries, timer *phaseTimer) (*profileInput, error) {
	switch p.src.kind {
	case fromUnsymbolized:
		return unsymbolizedProfile(p, bins)
	case fromLLVMSampleProfile:
		return sampleProfile(p)
	}
	return recordingProfile(ctx, p, bins, timer)
}

// validate refuses what cannot work on any input, before reading any.
func validate(opts Options, p *plan) error {
	if err := validateOutputs(opts, p); err != nil {
		return err
	}
	if !slices.Contains([]string{"", "block-max", "hits", "per-instruction", "blocks"}, opts.BodyCounts) {
		return usagef("--body-counts: %q is none of block-max, hits, per-instruction, blocks", opts.BodyCounts)
	}
	if _, ok := callCounts[opts.CallCounts]; !ok {
		return usagef("--call-counts: %q is none of estimate, executions, inclusive, none", opts.CallCounts)
	}
	return checkOutput(p)
}

// validateOutput refuses an output that no input could give.
func validateOutput(o *output) error {
	if err := validateCS(&o.CS); err != nil {
		return err
	}
	if err := checkFormat(o.flag); err != nil {
		return err
	}
	if err := validateGCC(o); err != nil {
		return err
	}
	if err := validatePropeller(o); err != nil {
		return err
	}
	switch {
	case o.format == formatAddress && o.flag == "pprof":
		return usagef("--skip-symbolization writes an unsymbolized (address) profile; --format=pprof does not apply")
	case formatColumns[formatNamed(o.flag)].traces && (o.format == formatAddress || o.LLVM.LeadingIPOnly):
		return usagef("--format=%s writes BOLT's profile of whole branch stacks; --skip-symbolization and --leading-ip-only do not apply", o.flag)
	case o.DebugBinary != "" && len(o.Binaries) > 1:
		return usagef("--debug-binary applies to one --binary; %d were given", len(o.Binaries))
	case o.useMD5 && o.format == formatPprof:
		return usagef("--use-md5 applies to LLVM sample profiles, not pprof")
	case o.FoldKernel && o.NoFoldKernel:
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
	if len(opts.Profiles) > 0 {
		n++
	}
	recording := opts.PerfData != "" || opts.PerfScript != "" || len(opts.Profiles) > 0
	switch {
	case len(opts.Binaries) == 0 && (!recording || opts.LLVM.ShowDisassemblyOnly):
		return usagef("--binary is required (binaries are found by build id only for --perfdata, --perfscript and --profile)")
	case len(opts.Binaries) == 0 && opts.DebugBinary != "":
		return usagef("--debug-binary applies to a --binary")
	case len(opts.Binaries) > 0 && len(opts.BinaryDirs) > 0:
		return usagef("--binary-dir is where binaries are found without --binary; give one or the other")
	case opts.Output == "":
		return usagef("--output is required")
	case n != 1 && !(n == 0 && opts.LLVM.ShowDisassemblyOnly):
		return usagef("give exactly one of --perfscript, --perfdata, --profile, --unsymbolized-profile and --llvm-sample-profile")
	case slices.Contains(opts.Binaries, ""):
		return usagef("--binary: empty path")
	case opts.SampleType != "" && len(opts.Profiles) == 0:
		return usagef("--sample-type applies to --profile")
	case len(opts.Profiles) > 0 && (opts.UsePerfScript || len(opts.PIDs) > 0):
		return usagef("--use-perf-script and --pid apply to perf's recordings; --profile's samples carry no process")
	}
	return nil
}
