package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/profshow"
)

// showOptions are the flags of profgen show.
type showOptions struct {
	profshow.Options
}

func (o *showOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Function, "function", "", "show one function's body and inline tree (linkage or demangled name)")
	fs.BoolVar(&o.JSON, "json", false, "write JSON for scripts")
	fs.IntVar(&o.Top, "top", 10, "number of hottest functions in the summary")
}

// newShowCommand returns profgen show: a profile's summary or one function.
func newShowCommand() *cobra.Command {
	var o showOptions
	cmd := &cobra.Command{
		Use:   "show PROFILE",
		Short: "Summarize a sample profile (text, binary, extbinary), a pprof profile or an indexed .profdata, or show one function",
		Long: `Show summarizes a sample profile: number of functions, total samples,
LLVM's hot and cold count thresholds (as the compiler's profile summary
computes them) and the hottest functions with demangled names. With
--function it prints one function's body counts, call targets and inline tree.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return profshow.Run(cmd.OutOrStdout(), o.Options, args[0])
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
