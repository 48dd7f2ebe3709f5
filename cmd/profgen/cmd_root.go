package main

import (
	"github.com/spf13/cobra"
)

// newRootCommand returns the root command: the perf-to-profile conversion,
// a drop-in for llvm-profgen, with the other commands below it.
func newRootCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:           "profgen",
		Short:         "Convert perf samples and instrumentation profiles for compilers",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
	}
	cmd.AddCommand(newMergeCommand())
	return cmd
}
