package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/profmerge"
)

// mergeOptions are the flags of `profgen merge`, named as llvm-profdata's.
type mergeOptions struct {
	profmerge.Options
}

func (o *mergeOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.Output, "output", "o", "-", "output file (\"-\" = stdout)")
	fs.BoolVar(&o.Text, "text", false, "write the text format instead of indexed .profdata")
	fs.StringVar(&o.Binary, "binary", "", "with no value: write indexed .profdata (the default); with a path: the binary for --match-binary-id")
	fs.Lookup("binary").NoOptDefVal = profmerge.BinaryFormatOnly
	fs.StringVar(&o.BinaryFile, "binary-file", "", "unstripped binary built with -mllvm -profile-correlate=binary, for counters-only raws")
	fs.StringArrayVar(&o.Weighted, "weighted-input", nil, "W,FILE: merge FILE with weight W (repeatable)")
	fs.StringVarP(&o.InputFiles, "input-files", "f", "", "file listing inputs, one [W,]FILE a line, # comments")
	fs.IntVarP(&o.Threads, "num-threads", "j", 0, "worker threads (0 = number of CPUs)")
	fs.StringVar(&o.FailureMode, "failure-mode", "any", "any: fail on any damaged input; all: skip damaged inputs, fail only if none merge")
	fs.BoolVar(&o.Sparse, "sparse", false, "leave out functions whose counters and bitmap bytes are all zero")
	fs.BoolVar(&o.ExtBinary, "extbinary", false, "sample profiles: write extbinary (the default for sample profiles)")
	fs.BoolVar(&o.UseMD5, "use-md5", false, "sample profiles: MD5 function names (extbinary)")
	fs.BoolVar(&o.Sample, "sample", false, "accepted for llvm-profdata compatibility: sample inputs are recognized by their magic")
	fs.BoolVar(&o.MatchBinaryID, "match-binary-id", false, "merge only raws whose binary id is the build id of --binary-file (or --binary=PATH); list the others")
}

func newMergeCommand() *cobra.Command {
	var o mergeOptions
	cmd := &cobra.Command{
		Use:   "merge [flags] INPUT...",
		Short: "Merge instrumentation profiles (.profraw, .profdata, directories) into indexed .profdata",
		Long: `Merge clang instrumentation profiles into one indexed .profdata (version 12, as
llvm-profdata-19 writes) or its text form. Inputs are raw profiles (versions
8-10), indexed profiles and directories of them. Files are streamed and merged
in parallel; the output is the same for any thread count and input order.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Args = args
			return profmerge.Run(cmd.ErrOrStderr(), &o.Options)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
