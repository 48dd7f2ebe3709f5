package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/proforder"
)

// orderOptions are the flags of `profgen order`, named as
// llvm-profdata-19 order's, with its defaults.
type orderOptions struct {
	proforder.Options
}

func (o *orderOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.Output, "output", "o", "-", "output file (\"-\" = stdout)")
	fs.Uint64Var(&o.NumTestTraces, "num-test-traces", 0, "keep the last N temporal profile traces out of the ordering and print the area under their page-fault curve")
}

func newOrderCommand() *cobra.Command {
	var o orderOptions
	cmd := &cobra.Command{
		Use:   "order [flags] PROFILE",
		Short: "Print a function order for the linker from a profile's temporal traces",
		Long: `Order prints the functions of an instrumentation profile's temporal profile
traces (clang -mllvm -pgo-temporal-instrumentation) in the order that LLVM's
balanced partitioning gives, one a line, for the linker's order file
(--symbol-ordering-file, -order_file), as llvm-profdata-19 order does.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Input = args[0]
			return proforder.Run(cmd.OutOrStdout(), o.Options)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}
