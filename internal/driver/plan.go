package driver

import (
	"cmp"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/sampleprof"
)

// The plan: Options resolved once (newPlan), before any input is read.
// Options, the flags as given, reach validate and newPlan alone; every
// stage after them takes the plan, or the part of it it needs, and each
// output's code takes its output.

// plan is one run: where the profile comes from, the binaries, the
// settings of the scan and of the profiles, and the outputs.
type plan struct {
	src source
	binarySpec
	scanSettings
	stackSettings
	CS   CSOptions   // of the scan's hybrid path and CS profiles (the first output's: GCC reads hybrid samples flat)
	LLVM LLVMOptions // llvm-profgen's tuning and diagnostic flags

	UseDwarfCorrelation bool
	DataAccessTrace     string
	ShowPseudoProbe     bool
	Quiet               bool
	Stdin               io.Reader
	Stdout, Stderr      io.Writer

	outputs []*output // the first is --format into -o, then each --also
}

// sourceKind is the kind of input a run reads.
type sourceKind uint8

const (
	fromNothing           sourceKind = iota // --show-disassembly-only reads none
	fromPerfScript                          // perf script text
	fromPerfData                            // perf.data, natively or through perf script
	fromUnsymbolized                        // an unsymbolized (address) profile
	fromLLVMSampleProfile                   // an LLVM sample profile, written again
	fromProfiles                            // continuous profilers' profiles (pprof, OTLP), one file at a time
)

// source is the input of a run: its kind and path ("-": Stdin).
type source struct {
	kind          sourceKind
	path          string
	perfBinary    string // perf, for perf.data through perf script ("": on PATH)
	usePerfScript bool   // read perf.data through perf script
	// profiles are the files of fromProfiles (profileFiles: the
	// directories listed); path is the first, sampleType the one to read.
	profiles   []string
	sampleType string
}

// name names the input in messages.
func (s source) name() string {
	switch {
	case s.path == "-":
		return "<stdin>"
	case len(s.profiles) > 1:
		return fmt.Sprintf("%s and %d more profiles", s.path, len(s.profiles)-1)
	}
	return s.path
}

// binarySpec says which binaries a run reads: those named, or those
// sampled, found by build id.
type binarySpec struct {
	Binaries    []string // the profiled ELF binaries; none: found by build id
	DebugBinary string   // DWARF of the one binary in a separate file
	BinaryDirs  []string // where binaries are found by build id
	finder      BinaryFinder
	cache       *BinaryCache  // nil: each binary is opened for the run alone
	keepRefused bool          // an output refused for the input's kind is left out (Options.KeepRefused)
	htlhashes   *htlhashIndex // the files of BinaryDirs by htlhash, made on first use
}

// scanSettings select and place the samples.
type scanSettings struct {
	PIDs         []int32
	PerfEvent    string
	Jobs         int
	NoRepairSkid bool
}

// stackSettings say how call stacks become profiles.
type stackSettings struct {
	CallCounts, BodyCounts string
	NoZeroUnsampledLines   bool
	NoFoldWrappers         bool
	GoDWARF                bool
	FoldKernel             bool
	NoFoldKernel           bool
	KeepGoexit             bool
}

// output is one output of a run, resolved: its format, file, and the
// settings that are its alone. It reaches the run's settings through its
// plan.
type output struct {
	*plan
	format outputFormat
	// encoding is the LLVM sample profile encoding --format names (also
	// of --llvm-sample-profile written with --skip-symbolization).
	encoding   sampleprof.Format
	flag       string // the --format value, for messages
	path       string
	useMD5     bool
	vtables    bool             // extbinary keeps vtable type counts
	gcc        GCCOptions       // resolved: Version set
	propeller  PropellerOptions // resolved: CCVersion set
	flatHybrid bool             // reads hybrid samples as flat branch stacks
}

// newPlan resolves opts, which validate has accepted.
func newPlan(opts Options) *plan {
	opts = withDefaults(opts)
	p := &plan{
		src:                 sourceOf(opts),
		binarySpec:          binarySpec{Binaries: opts.Binaries, DebugBinary: opts.DebugBinary, BinaryDirs: opts.BinaryDirs, finder: opts.Finder, cache: opts.BinaryCache, keepRefused: opts.KeepRefused},
		scanSettings:        scanSettings{PIDs: opts.PIDs, PerfEvent: opts.PerfEvent, Jobs: opts.Jobs, NoRepairSkid: opts.NoRepairSkid},
		stackSettings:       stackSettingsOf(opts),
		CS:                  *opts.CS,
		LLVM:                opts.LLVM,
		UseDwarfCorrelation: opts.UseDwarfCorrelation,
		DataAccessTrace:     opts.DataAccessTrace,
		ShowPseudoProbe:     opts.ShowPseudoProbe,
		Quiet:               opts.Quiet,
		Stdin:               opts.Stdin, Stdout: opts.Stdout, Stderr: opts.Stderr,
	}
	for _, o := range outputRequests(opts) {
		p.outputs = append(p.outputs, p.newOutput(opts, o))
	}
	if p.outputs[0].flatHybrid {
		p.CS.IgnoreStackSamples = true
	}
	return p
}

func sourceOf(opts Options) source {
	s := source{perfBinary: opts.PerfBinary, usePerfScript: opts.UsePerfScript}
	switch {
	case opts.PerfData != "":
		s.kind, s.path = fromPerfData, opts.PerfData
	case opts.PerfScript != "":
		s.kind, s.path = fromPerfScript, opts.PerfScript
	case opts.UnsymbolizedProfile != "":
		s.kind, s.path = fromUnsymbolized, opts.UnsymbolizedProfile
	case opts.LLVMSampleProfile != "":
		s.kind, s.path = fromLLVMSampleProfile, opts.LLVMSampleProfile
	case len(opts.Profiles) > 0:
		s.kind, s.sampleType = fromProfiles, opts.SampleType
	}
	return s
}

func stackSettingsOf(opts Options) stackSettings {
	return stackSettings{CallCounts: opts.CallCounts, BodyCounts: opts.BodyCounts, NoZeroUnsampledLines: opts.NoZeroUnsampledLines,
		NoFoldWrappers: opts.NoFoldWrappers, GoDWARF: opts.GoDWARF, FoldKernel: opts.FoldKernel, NoFoldKernel: opts.NoFoldKernel, KeepGoexit: opts.KeepGoexit}
}

// outputRequest is an output as asked: -o with --format (and
// --skip-symbolization), or an --also.
type outputRequest struct {
	format, path string
	skip, useMD5 bool // --skip-symbolization, --use-md5 (an --also's: extbinary only)
}

// outputRequests are the run's outputs as asked, -o first.
func outputRequests(opts Options) []outputRequest {
	reqs := []outputRequest{{format: cmp.Or(opts.Format, "extbinary"), path: opts.Output, skip: opts.SkipSymbolization, useMD5: opts.UseMD5}}
	for _, a := range opts.Also {
		reqs = append(reqs, outputRequest{format: a.Format, path: a.Output, useMD5: opts.UseMD5 && a.Format == "extbinary"})
	}
	return reqs
}

// newOutput resolves one output of the run.
func (p *plan) newOutput(opts Options, r outputRequest) *output {
	encoding, _ := sampleprof.ParseFormat(r.format) // formatLLVM's flags are the encodings
	o := &output{plan: p, format: formatNamed(r.format), encoding: encoding, flag: r.format, path: r.path,
		useMD5: r.useMD5, vtables: opts.WriteVTables,
		gcc: opts.GCC, flatHybrid: opts.CS.IgnoreStackSamples}
	if r.skip {
		o.format = formatAddress
	}
	o.gcc.Version = cmp.Or(o.gcc.Version, sampleprof.GCCVersion2)
	o.propeller = opts.Propeller
	o.propeller.CCVersion = cmp.Or(o.propeller.CCVersion, "v1")
	o.flatHybrid = o.flatHybrid || o.format == formatGCC || o.format == formatPropeller
	return o
}

// withDefaults fills what Options leaves to the driver.
func withDefaults(opts Options) Options {
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
	return opts
}

// first is the run's first output (-o).
func (p *plan) first() *output { return p.outputs[0] }

// anyOutput reports whether an output of the run satisfies pred.
func (p *plan) anyOutput(pred func(*output) bool) bool {
	for _, o := range p.outputs {
		if pred(o) {
			return true
		}
	}
	return false
}
