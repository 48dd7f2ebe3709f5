package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/driver"
)

// rootOptions are the llvm-profgen compatible flags of the root command.
type rootOptions struct {
	perfScript          string
	unsymbolizedProfile string
	binary              string
	output              string
	skipSymbolization   bool
	pids                []int32
	format              string
}

// AddFlags registers the flags; names and defaults follow llvm-profgen.
func (o *rootOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.perfScript, "perfscript", "", "perf script text of LBR samples (`-` for stdin)")
	fs.StringVar(&o.perfScript, "ps", "", "alias for --perfscript")
	fs.StringVar(&o.unsymbolizedProfile, "unsymbolized-profile", "", "unsymbolized profile (--skip-symbolization output) as input")
	fs.StringVar(&o.unsymbolizedProfile, "up", "", "alias for --unsymbolized-profile")
	fs.StringVar(&o.binary, "binary", "", "the profiled ELF binary")
	fs.StringVarP(&o.output, "output", "o", "", "output file (`-` for stdout)")
	fs.BoolVar(&o.skipSymbolization, "skip-symbolization", false, "write the unsymbolized profile (address ranges and branches)")
	fs.Int32SliceVar(&o.pids, "pid", nil, "keep only samples of these processes (repeatable or comma-separated)")
	fs.StringVar(&o.format, "format", "extbinary", "output format: extbinary, binary, text")
	_ = fs.MarkHidden("ps")
	_ = fs.MarkHidden("up")
}

func (o *rootOptions) validate() error {
	switch {
	case o.binary == "":
		return fmt.Errorf("--binary is required")
	case o.output == "":
		return fmt.Errorf("--output is required")
	case (o.perfScript == "") == (o.unsymbolizedProfile == ""):
		return fmt.Errorf("give exactly one of --perfscript and --unsymbolized-profile")
	}
	return nil
}

// newRootCommand returns the root command: the perf-to-profile conversion,
// a drop-in for llvm-profgen, with the other commands below it.
func newRootCommand() *cobra.Command {
	opts := &rootOptions{}
	cmd := &cobra.Command{
		Use:           "profgen",
		Short:         "Convert perf samples and instrumentation profiles for compilers",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRoot(opts)
		},
	}
	opts.AddFlags(cmd.Flags())
	cmd.SetArgs(llvmStyleArgs(os.Args[1:]))
	cmd.AddCommand(newShowCommand())
	cmd.AddCommand(newMergeCommand())
	return cmd
}

func runRoot(opts *rootOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	bin, closeBin, err := openBinary(opts.binary)
	if err != nil {
		return err
	}
	defer closeBin()
	return driver.Run(driver.Options{
		PerfScript:          opts.perfScript,
		UnsymbolizedProfile: opts.unsymbolizedProfile,
		Binary:              bin,
		Output:              opts.output,
		SkipSymbolization:   opts.skipSymbolization,
		PIDs:                opts.pids,
		Format:              opts.format,
		Stdin:               os.Stdin,
		Stderr:              os.Stderr,
	})
}

// llvmStyleArgs accepts llvm-profgen's single-dash long options
// (-perfscript=x, -skip-symbolization) by giving them a second dash.
func llvmStyleArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if len(a) > 2 && a[0] == '-' && a[1] >= 'a' && a[1] <= 'z' && !isShortWithValue(a) {
			a = "-" + a
		}
		out = append(out, a)
	}
	return out
}

// isShortWithValue reports whether a is a short flag with its value
// attached, like -ofile.
func isShortWithValue(a string) bool { return a[1] == 'o' && !strings.HasPrefix(a, "-output") }
