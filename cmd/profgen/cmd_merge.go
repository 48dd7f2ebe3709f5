package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/profmerge"
	"github.com/profgen/profgen/internal/sampleprof"
)

// addCorrelationFlags adds llvm-profdata's flags for correlated raws.
func addCorrelationFlags(fs *pflag.FlagSet, c *profmerge.Correlation) {
	fs.StringVar(&c.DebugInfo, "debug-info", "", "binary (or debug file) built with -g -mllvm -profile-correlate=debug-info: records and names of its raws, from its DWARF")
	fs.StringVar(&c.Correlate, "correlate", "", "binary or debug-info: the correlation of raws whose binary --debug-file-directory or --debuginfod finds by the raw's binary id")
	fs.StringArrayVar(&c.DebugFileDirs, "debug-file-directory", nil, "directory of binaries by build id (DIR/.build-id/xx/rest.debug), for --correlate (repeatable)")
	fs.BoolVar(&c.Debuginfod, "debuginfod", false, "find the binaries of --correlate on the debuginfod servers of DEBUGINFOD_URLS too")
	fs.IntVar(&c.MaxDebugInfoWarnings, "max-debug-info-correlation-warnings", 5, "the most warnings of one binary's DWARF (0: no limit)")
}

// mergeOptions are the flags of `profgen merge`, named as llvm-profdata's,
// with its defaults.
type mergeOptions struct {
	profmerge.Options
	dumpInputs bool // --dump-input-file-list
}

var formatUsage = map[string]string{
	"text":      "write the text format",
	"binary":    "write the binary format: indexed .profdata (the default for instrumentation profiles), SPF_Binary for sample profiles",
	"extbinary": "write the extensible binary format (the default for sample profiles; indexed .profdata for instrumentation profiles)",
	"gcc":       "GCC AutoFDO profile for gcc -fauto-profile (only meaningful for --sample; llvm-profdata cannot write it; see docs/gcc.md)",
}

var kindUsage = map[string]string{
	"instr":  "instrumentation profiles (llvm's default; profgen tells the kind by magic and refuses sample inputs when given)",
	"sample": "sample profiles (profgen tells the kind by magic and refuses instrumentation inputs when given)",
}

func (o *mergeOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.Output, "output", "o", "-", "output file (\"-\" = stdout)")
	choiceVar(fs, &o.Format, formatUsage, "text", "binary", "extbinary", "gcc")
	choiceVar(fs, &o.Kind, kindUsage, "instr", "sample")
	fs.StringVar(&o.BinaryFile, "binary-file", "", "unstripped instrumented binary: records and names of -mllvm -profile-correlate=binary raws; the build id --match-binary-id compares with")
	addCorrelationFlags(fs, &o.Correlation)
	fs.StringArrayVar(&o.Weighted, "weighted-input", nil, "W,FILE: merge FILE with weight W (repeatable)")
	fs.StringVarP(&o.InputFiles, "input-files", "f", "", "file listing inputs, one [W,]FILE a line, # comments")
	fs.BoolVar(&o.dumpInputs, "dump-input-file-list", false, "print the inputs (directories walked) as WEIGHT,FILE lines and exit without merging")
	fs.IntVarP(&o.Threads, "num-threads", "j", 0, "worker threads; -j1 and -j=1 work too (default 0: autodetect)")
	fs.StringVar(&o.FailureMode, "failure-mode", "any", "any: fail on any damaged input; all: skip damaged inputs, fail only if none merge; warn: skip damaged inputs, never fail (an empty profile if none merge)")
	fs.BoolVar(&o.Sparse, "sparse", false, "leave out functions whose counters and bitmap bytes are all zero (only meaningful for instrumentation profiles)")
	fs.BoolVar(&o.UseMD5, "use-md5", false, "MD5 function names in the name table (only meaningful for --extbinary)")
	fs.BoolVar(&o.CompressAllSections, "compress-all-sections", false, "zlib-compress every section (only meaningful for --extbinary)")
	fs.BoolVar(&o.GenPartialProfile, "gen-partial-profile", false, "flag the profile as partial (only meaningful for --extbinary)")
	fs.BoolVar(&o.ProfileIsFS, "profile-isfs", false, "sample profiles: the inputs use flow-sensitive discriminators (flagged in --extbinary output)")
	fs.Uint64Var(&o.TraceLimits.Reservoir, "temporal-profile-trace-reservoir-size", 100, "the most temporal profile traces kept")
	fs.Uint64Var(&o.TraceLimits.MaxLength, "temporal-profile-max-trace-length", 10000, "the most functions kept of one temporal profile trace")
	fs.StringVarP(&o.RemappingFile, "remapping-file", "r", "", "symbol remapping file: one 'old_symbol new_symbol' a line")
	fs.StringVar(&o.Function, "function", "", "keep only the functions whose name matches this regular expression")
	fs.StringVar(&o.NoFunction, "no-function", "", "leave out the functions whose name matches this regular expression")
	fs.StringVar(&o.ProfSymList, "prof-sym-list", "", "sample profiles: file of function names to add to the profile symbol list")
	fs.BoolVar(&o.DropProfileSymbolList, "drop-profile-symbol-list", false, "sample profiles: drop the inputs' profile symbol lists")
	fs.StringVar(&o.ProfileLayout, "convert-sample-profile-layout", "", "sample profiles: flat (every inlined profile made top-level) or nest (context-sensitive profiles; profiles without contexts stay as they are)")
	fs.BoolVar(&o.MergedBaseProfiles, "generate-merged-base-profiles", false, "sample profiles: with --convert-sample-profile-layout=nest, also merge every context into its function's top-level profile (its inlinees marked !Attributes 4)")
	fs.BoolVar(&o.SplitLayout, "split-layout", false, "sample profiles: extbinary with the functions that have inlinees in their own sections (llvm-profdata 20; -19 reads it); with --text, the others marked !Flat (as llvm-profdata-22)")
	fs.BoolVar(&o.WriteVTables, "extbinary-write-vtable-type-prof", false, "sample profiles: keep the vtable type counts in --extbinary output (LLVM 22; dropped without it, and unreadable to LLVM 19 with it)")
	fs.IntVar(&o.OutputVersion, "output-version", 0, "profgen: indexed version to write: 13 (clang 22 and later, as llvm-profdata-22), 12 (clang 19 and later, as llvm-profdata-19) or 7 (clang 14 and later, as llvm-profdata-14); default 13, or 12 where the raws' front-end hashes are those of clang 21 or older")
	fs.Uint32Var(&o.GCC.Version, "gcov-version", sampleprof.GCCVersion2, "profgen: --gcc output version: 2 (GCC 12 to 15) or 3 (GCC 16: summary, source files)")
	fs.BoolVar(&o.GCC.FoldDiscriminators, "gcc-fold-discriminators", false, "profgen: --gcc output with one count per line (the largest of its discriminators'), as GCC 12 reads it; GCC 13 on use discriminators")
	fs.BoolVar(&o.GCC.ZerosAsOne, "gcc-zeros-as-one", false, "profgen: --gcc output with the zero counts of the functions and inlinees GCC 12 finds hot (counts adding up to 2 or more) written as 1: gcc-12 crashes on such zeros in vectorized loops (docs/gcc.md)")
	fs.BoolVar(&o.MergeColdContext, "sample-merge-cold-context", false, "sample profiles: merge the context-sensitive profiles whose total is below the cold count threshold into their last frames' profile")
	fs.BoolVar(&o.TrimColdContext, "sample-trim-cold-context", false, "sample profiles: drop the context-sensitive profiles whose total is below the cold count threshold (after merging)")
	fs.UintVar(&o.ColdContextFrameDepth, "sample-frame-depth-for-cold-context", 1, "sample profiles: the frames a merged cold context keeps (1: the context-less base profile)")
	fs.Uint64Var(&o.OutputSizeLimit, "output-size-limit", 0, "sample profiles: drop the coldest functions until the output takes at most this many bytes (default 0: no limit)")
	fs.StringVar(&o.Supplement.SampleFile, "supplement-instr-with-sample", "", "sample profile: functions it finds hot or warm that the one instrumentation input finds cold get scaled-up or pseudo counts")
	fs.Float64Var(&o.Supplement.ZeroCounterThreshold, "zero-counter-threshold", 0.7, "with --supplement-instr-with-sample: a function with a larger share of zero counters gets pseudo counts rather than scaled ones")
	fs.Uint64Var(&o.Supplement.InstrColdThreshold, "instr-prof-cold-threshold", 0, "with --supplement-instr-with-sample: the instrumentation profile's cold count threshold (default 0: its summary's)")
	fs.Uint64Var(&o.Supplement.MinSize, "suppl-min-size-threshold", 10, "with --supplement-instr-with-sample: functions with fewer counters are left alone")
	fs.BoolVar(&o.KeepVTableSymbols, "keep-vtable-symbols", false, "keep the vtable names of raw and indexed inputs in the indexed output (for show --show-vtables)")
	fs.StringVar(&o.MemProf.ProfiledBinary, "profiled-binary", "", "the binary raw MemProf inputs (.memprofraw) were collected from")
	fs.IntVar(&o.MemProf.Version, "memprof-version", 3, "MemProf section version: 2, 3 or 4")
	fs.BoolVar(&o.MemProf.FullSchema, "memprof-full-schema", false, "write every MemProf MIB field, not only the hot/cold ones")
	fs.BoolVar(&o.MemProf.RandomHotness, "memprof-random-hotness", false, "make each MemProf allocation site cold or not at random (testing)")
	fs.Uint32Var(&o.MemProf.RandomHotnessSeed, "memprof-random-hotness-seed", 0, "seed of --memprof-random-hotness (glibc rand, as llvm-profdata; 0: the time)")
	fs.BoolVar(&o.MatchBinaryID, "match-binary-id", false, "merge only raws whose binary id is the build id of --binary-file; list the others")
}

func newMergeCommand() *cobra.Command {
	var o mergeOptions
	cmd := &cobra.Command{
		Use:   "merge [flags] INPUT...",
		Short: "Merge instrumentation profiles (.profraw, .profdata, directories) into indexed .profdata",
		Long: `Merge clang instrumentation profiles into one indexed .profdata (version 12, as
llvm-profdata-19 writes) or its text form. Inputs are raw profiles (versions
8-10, of 64- and 32-bit programs of either byte order), indexed profiles
(versions 1-12), text profiles (.proftext) and directories of them. Files
are streamed and merged in parallel; the output is the same for any thread
count and input order. Sample profiles (text, binary, extbinary, GCC
AutoFDO) merge as llvm-profdata merge --sample.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if l := o.ProfileLayout; l != "" && l != "flat" && l != "nest" {
				return usageError{errString("--convert-sample-profile-layout: " + l + ": want flat or nest")}
			}
			o.Args = args
			if o.dumpInputs {
				return profmerge.DumpInputs(cmd.OutOrStdout(), o.Inputs)
			}
			return profmerge.Run(cmd.ErrOrStderr(), &o.Options)
		},
	}
	o.AddFlags(cmd.Flags())
	return withLLVMArgs(cmd)
}
