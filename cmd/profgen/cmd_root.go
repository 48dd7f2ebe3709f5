package main

import (
	"context"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/stackpipe"
)

// rootOptions are the flags of the conversion.
type rootOptions struct {
	perfScript string
	perfData   string
	perfBinary string
	binaries   []string
	output     string
	format     string
}

func (o *rootOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.perfScript, "perfscript", "", "perf script text to convert (\"-\" for stdin)")
	fs.StringVar(&o.perfData, "perfdata", "", "perf.data file; profgen runs perf script on it through a pipe")
	fs.StringVar(&o.perfBinary, "perf-binary", "", "perf executable used for --perfdata (default: perf on PATH)")
	fs.StringArrayVar(&o.binaries, "binary", nil, "profiled binary (repeat for several binaries)")
	fs.StringVarP(&o.output, "output", "o", "", "output file; with several binaries and an LLVM format, a directory or a pattern with %b (binary base name)")
	fs.StringVar(&o.format, "format", "text", "output format: text (LLVM sample profile) or pprof")
}

// newRootCommand returns the root command: the perf-to-profile conversion,
// a drop-in for llvm-profgen, with the other commands below it.
func newRootCommand() *cobra.Command {
	opts := &rootOptions{}
	cmd := &cobra.Command{
		Use:   "profgen --binary BIN (--perfscript FILE | --perfdata FILE) -o OUT",
		Short: "Convert perf samples and instrumentation profiles for compilers",
		Long: `Convert perf samples to LLVM sample profiles or pprof.

Call-stack samples (perf record -g, e.g. -e cpu-clock on machines without
LBR) give an LLVM sample profile per binary (--format=text) or one pprof
profile (--format=pprof) with a mapping per binary, usable by go build -pgo.
With several --binary and an LLVM format, -o is a directory (one
<binary>.prof each) or a pattern containing %b.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runRoot(cmd.Context(), opts)
		},
	}
	opts.addFlags(cmd.Flags())
	cmd.MarkFlagsMutuallyExclusive("perfscript", "perfdata")
	cmd.MarkFlagsOneRequired("perfscript", "perfdata")
	cmd.MarkFlagRequired("binary")
	cmd.MarkFlagRequired("output")
	return cmd
}

func runRoot(ctx context.Context, o *rootOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	return stackpipe.Run(ctx, stackpipe.Config{
		PerfScript: o.perfScript, PerfData: o.perfData, PerfBinary: o.perfBinary,
		Binaries: o.binaries, Output: o.output, Format: o.format, Stderr: os.Stderr,
	})
}
