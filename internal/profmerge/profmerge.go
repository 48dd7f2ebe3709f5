// Package profmerge is `profgen merge`, llvm-profdata merge's drop-in: it
// collects the inputs (arguments, response files, -f lists, weights,
// directories), tells their family by magic (profformat), and sends
// instrumentation profiles to instrprof/merge and sample profiles to
// sampleprof, writing the result atomically. Flags live in cmd/profgen.
package profmerge

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/profgen/profgen/internal/addrprof"
	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/instrprof/text"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/sampleprof"
)

// Options are llvm-profdata merge's settings.
type Options struct {
	Inputs
	Output string
	// Kind is "instr" or "sample" when --instr or --sample was given (the
	// last one wins); inputs are told apart by magic either way, and a
	// contradiction is an error, as llvm-profdata fails on it.
	Kind string
	// Format is the last of --text, --binary, --extbinary, --gcc; "" is
	// llvm's default: extbinary for sample profiles, binary (indexed) for
	// instrumentation profiles.
	Format     string
	BinaryFile string // --binary-file: correlation, --match-binary-id
	Correlation
	Threads       int
	FailureMode   string
	MatchBinaryID bool
	Sparse        bool
	// OutputVersion is the indexed version written: 13 (clang 22 and
	// later), 12 (clang 19 and later) or 7 (clang 14 and later); 0 picks 13,
	// or 12 for front-end hashes of clang 21 or older (frontEndVersion).
	OutputVersion int
	// TraceLimits bound the temporal profile traces kept.
	TraceLimits instrprof.TraceLimits
	// RemappingFile renames functions: "old new" a line (-r).
	RemappingFile string
	// Function and NoFunction keep and drop functions by regular
	// expression (--function, --no-function).
	Function, NoFunction string
	// ProfSymList adds the names listed in a file to a sample profile's
	// symbol list; DropProfileSymbolList drops the inputs' lists.
	ProfSymList           string
	DropProfileSymbolList bool
	// ProfileLayout (--convert-sample-profile-layout): "flat" makes every
	// inlined profile top-level; "nest" applies to context-sensitive
	// profiles only; "" keeps the layout.
	ProfileLayout string
	// MergedBaseProfiles (--generate-merged-base-profiles): nesting also
	// merges every context into its function's top-level profile.
	MergedBaseProfiles bool
	// SplitLayout (--split-layout, llvm-profdata 20): extbinary sample
	// output in the split layout.
	SplitLayout bool
	// WriteVTables (--extbinary-write-vtable-type-prof, LLVM 22): extbinary
	// sample output keeps the vtable type counts; without it they are
	// dropped, as llvm-profdata-22 does (text output keeps them).
	WriteVTables bool
	// Extbinary section options (sample profiles).
	UseMD5, CompressAllSections, GenPartialProfile bool
	// ProfileIsFS (--profile-isfs): the inputs' discriminators are
	// flow-sensitive ones; extbinary output is flagged so.
	ProfileIsFS bool
	// GCC are the options of --gcc output (--gcov-version,
	// --gcc-fold-discriminators).
	GCC sampleprof.GCCOptions
	// KeepVTableSymbols (--keep-vtable-symbols): the indexed output keeps
	// the vtable names of the raw and indexed inputs.
	KeepVTableSymbols bool
	// MemProf holds --profiled-binary and the --memprof-* flags.
	MemProf MemProfOptions
	// MergeColdContext and TrimColdContext (--sample-merge-cold-context,
	// --sample-trim-cold-context) merge or drop the cold contexts of a
	// context-sensitive sample profile, a merged one keeping its last
	// ColdContextFrameDepth frames (--sample-frame-depth-for-cold-context).
	MergeColdContext, TrimColdContext bool
	ColdContextFrameDepth             uint
	// OutputSizeLimit (--output-size-limit) drops a sample profile's
	// coldest functions until the output takes at most this many bytes.
	OutputSizeLimit uint64
	// Supplement (--supplement-instr-with-sample) adjusts the one
	// instrumentation input by a sample profile.
	Supplement Supplement
}

// Output formats, as llvm-profdata's flags name them.
const (
	FormatText      = "text"
	FormatBinary    = "binary"
	FormatExtBinary = "extbinary"
	FormatGCC       = "gcc"
)

// Run merges the inputs of o and writes the output. Flags are checked
// before any input is read.
func Run(stderr io.Writer, o *Options) error {
	opts, err := o.mergeOpts()
	o.Correlation.writeWarnings(stderr, "merge")
	if err != nil {
		return err
	}
	if err := atomicfile.CheckWritable(o.Output); err != nil {
		return err
	}
	inputs, err := o.Collect()
	if err != nil {
		return err
	}
	kind, err := Classify(Paths(inputs))
	if err != nil {
		return err
	}
	if kind == profformat.KindAddress {
		return mergeAddress(o, inputs)
	}
	if o.Supplement.SampleFile != "" {
		return supplement(stderr, o, opts, inputs)
	}
	if err := o.checkKind(kind); err != nil {
		return err
	}
	if o.Kind == "sample" || kind == profformat.KindSample {
		if err := checkNotEmpty(inputs); err != nil {
			return err
		}
		return mergeSample(stderr, o, inputs)
	}
	return mergeInstr(stderr, o, opts, inputs)
}

// mergeAddress merges address profiles (package addrprof), which take no
// weights nor llvm-profdata's options.
func mergeAddress(o *Options, inputs []merge.Input) error {
	if flag := cmp.Or(o.Kind, o.Format); flag != "" {
		return fmt.Errorf("--%s does not apply to address profiles, which are merged into their own kind", flag)
	}
	for _, in := range inputs {
		if in.Weight > 1 {
			return fmt.Errorf("%s: weight %d: address profiles are merged unweighted", in.Path, in.Weight)
		}
	}
	out, err := atomicfile.Create(o.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	if err := addrprof.MergeFiles(out, Paths(inputs)); err != nil {
		return err
	}
	return out.Commit()
}

// checkNotEmpty refuses an empty sample profile, as llvm-profdata does
// (an empty raw, which a killed process leaves, is skipped instead).
func checkNotEmpty(inputs []merge.Input) error {
	for _, in := range inputs {
		if err := profformat.CheckNotEmpty(in.Path, profformat.KindSample); err != nil {
			return err
		}
	}
	return nil
}

// checkKind refuses inputs of the other family than --instr or --sample
// named (llvm-profdata cannot read them and merges nothing).
func (o *Options) checkKind(kind profformat.Kind) error {
	want := profformat.KindOfFlag(o.Kind)
	if o.Kind == "" || kind == want || kind == profformat.KindUnknown {
		return nil
	}
	return fmt.Errorf("--%s given, but the inputs are %s profiles", o.Kind, kind)
}

// skipWarning is how a skipped input's line starts: a warning, as in
// llvm-profdata, except for an empty raw, which llvm skips silently.
func skipWarning(k merge.SkipKind) string {
	if k == merge.SkipEmpty {
		return ""
	}
	return "warning: "
}

func mergeInstr(stderr io.Writer, o *Options, opts merge.Options, inputs []merge.Input) error {
	if o.Format == FormatGCC {
		return errors.New("--gcc: unknown format for instrumentation profiles (only meaningful for --sample)")
	}
	inputs, mem, err := splitMemProf(inputs)
	if err != nil {
		return err
	}
	var seed uint32
	if o.MemProf.RandomHotness {
		seed = o.MemProf.hotnessSeed(stderr)
	}
	memData, memSkipped, err := readMemProf(stderr, o, mem)
	if err != nil {
		return err
	}
	res, err := mergeInstrInputs(inputs, opts, len(mem)-len(memSkipped))
	if err != nil {
		printSkipped(stderr, memSkipped)
		return err
	}
	res.Skipped = append(memSkipped, res.Skipped...)
	addMemProf(o, res.Profile, memData, seed)
	printSkipped(stderr, res.Skipped)
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "profgen merge: warning: %s\n", w)
	}
	version := o.outputVersion(stderr, res.Profile)
	fmt.Fprintf(stderr, "profgen merge: %s; output: %s\n", res.Summary(), o.readers(version))
	if note := oldRawsNote(res.RawVersions); note != "" {
		fmt.Fprintf(stderr, "profgen merge: note: %s\n", note)
	}
	if res.Merged == res.Suspect && o.FailureMode != "warn" {
		return errors.New("no profile can be merged")
	}
	filter, err := newNameFilter(o.Function, o.NoFunction)
	if err != nil {
		return err
	}
	filter.filterInstr(stderr, res.Profile)
	if o.Sparse {
		res.Profile.DropZero()
	}
	return writeInstr(o, res, version)
}

// printSkipped says which inputs were skipped, and why.
func printSkipped(stderr io.Writer, skipped []merge.Skip) {
	for _, s := range skipped {
		fmt.Fprintf(stderr, "profgen merge: %sskipped %s: %s\n", skipWarning(s.Kind), s.Path, s.Reason)
	}
}

// mergeInstrInputs merges the instrumentation inputs and counts the
// MemProf ones read beside them; none (only MemProf profiles) gives an
// empty profile, and nothing read at all is an error.
func mergeInstrInputs(inputs []merge.Input, opts merge.Options, memInputs int) (*merge.Result, error) {
	switch {
	case len(inputs) == 0 && memInputs == 0:
		return nil, errors.New("no profile can be merged")
	case len(inputs) == 0:
		return &merge.Result{Profile: instrprof.NewProfile(), Merged: memInputs}, nil
	}
	res, err := merge.Run(inputs, opts)
	if err == nil {
		res.Merged += memInputs
	}
	return res, err
}

func writeInstr(o *Options, res *merge.Result, version int) error {
	out, err := atomicfile.Create(o.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	if o.Format == FormatText {
		err = text.Write(out, res.Profile)
	} else {
		err = indexed.WriteVersion(out, res.Profile, version)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", o.Output, err)
	}
	return out.Commit()
}

// readers says which compilers read the output.
func (o *Options) readers(version int) string {
	if o.Format == FormatText {
		return "text format"
	}
	return fmt.Sprintf("indexed version %d, read by clang %d and later", version, indexed.ClangReads[version])
}

func (o *Options) mergeOpts() (merge.Options, error) {
	opts := merge.Options{Threads: o.Threads, TraceLimits: o.TraceLimits, KeepVTableNames: o.KeepVTableSymbols}
	if opts.Threads <= 0 {
		opts.Threads = runtime.NumCPU()
	}
	switch o.OutputVersion {
	case 0, indexed.Version, indexed.PrevVersion, indexed.OldestVersion:
	default:
		return opts, fmt.Errorf("--output-version=%d: profgen writes 13 (clang 22 and later), 12 (clang 19 and later) or 7 (clang 14 and later)", o.OutputVersion)
	}
	switch o.FailureMode {
	case "any", "":
	case "all", "warn":
		opts.KeepGoing = true
	default:
		return opts, fmt.Errorf("--failure-mode=%q: want any or all", o.FailureMode)
	}
	if err := o.correlation(&opts); err != nil {
		return opts, err
	}
	rename, err := readRemapping(o.RemappingFile)
	if err != nil {
		return opts, err
	}
	opts.Rename = rename
	if o.MatchBinaryID {
		id, err := o.matchID()
		if err != nil {
			return opts, err
		}
		opts.MatchID = id
	}
	return opts, nil
}

// matchID is the build id of the binary --match-binary-id compares with.
func (o *Options) matchID() ([]byte, error) {
	if o.BinaryFile == "" {
		return nil, errors.New("--match-binary-id needs --binary-file=PATH (the instrumented binary)")
	}
	return merge.BuildID(o.BinaryFile)
}
