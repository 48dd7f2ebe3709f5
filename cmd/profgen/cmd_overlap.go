package main

import (
	"math"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/profoverlap"
)

// overlapOptions are the flags of `profgen overlap`, named as
// llvm-profdata-19 overlap's, with its defaults.
type overlapOptions struct {
	profoverlap.Options
}

func (o *overlapOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.Output, "output", "o", "-", "output file (\"-\" = stdout)")
	choiceVar(fs, &o.Kind, map[string]string{
		"instr":  "instrumentation profiles (llvm's default; profgen tells the kind by magic and refuses sample inputs when given)",
		"sample": "sample profiles (profgen tells the kind by magic and refuses instrumentation inputs when given)",
	}, "instr", "sample")
	fs.StringVar(&o.Function, "function", "", "report on their own the functions whose name contains this (sample profiles: the matched ones)")
	fs.Uint64Var(&o.ValueCutoff, "value-cutoff", math.MaxUint64, "report on their own the functions whose largest count in the test profile is at least this (the default, the largest uint64, selects none)")
	fs.Uint64Var(&o.SimilarityCutoff, "similarity-cutoff", 0, "sample profiles: list the matched functions less similar than this (percentage times 10000)")
	llvmVersionVar(fs, &o.Version)
	fs.BoolVar(&o.CS, "cs", false, "instrumentation profiles: program sums of the context-sensitive IR records (-fcs-profile-generate) only; not for CSSPGO")
}

func newOverlapCommand() *cobra.Command {
	var o overlapOptions
	cmd := &cobra.Command{
		Use:   "overlap [flags] BASE TEST",
		Short: "Compare two profiles of one program: how much of the test profile's counts the base shares",
		Long: `Overlap reports how much two profiles of one program agree, as llvm-profdata-22
overlap does, in its words and numbers: for instrumentation profiles (indexed,
raw, .proftext) the shares of edge counters and of indirect-call, memop and
vtable values common to both, the functions in one profile only and those
whose counters disagree; for sample profiles (text, binary, extbinary, gcc)
the whole-program similarity, sample overlap, function overlap and
hot-function and hot-block overlaps, with a table of the functions that
--function, --value-cutoff or --similarity-cutoff select.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Base, o.Test = args[0], args[1]
			return profoverlap.Run(cmd.OutOrStdout(), o.Options)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
