package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/driver"
	"github.com/profgen/profgen/internal/stackpipe"
)

// rootOptions are the llvm-profgen compatible flags of the root command.
type rootOptions struct {
	perfScript          string
	unsymbolizedProfile string
	binaries            []string
	perfData            string
	perfBinary          string
	debugBinary         string
	useMD5              bool
	formatSet           bool // --format given: call-stack input defaults to text
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
	fs.StringVar(&o.debugBinary, "debug-binary", "", "DWARF kept in a separate file (objcopy --only-keep-debug)")
	fs.BoolVar(&o.useMD5, "use-md5", false, "extbinary: MD5 function names")
	fs.StringVar(&o.perfData, "perfdata", "", "perf.data file; profgen runs perf script on it through a pipe")
	fs.StringVar(&o.perfData, "pd", "", "alias for --perfdata")
	fs.StringVar(&o.perfBinary, "perf-binary", "", "perf executable used for --perfdata (default: perf on PATH)")
	fs.StringArrayVar(&o.binaries, "binary", nil, "the profiled ELF binary (repeat for several binaries with call-stack input)")
	fs.StringVarP(&o.output, "output", "o", "", "output file (`-` for stdout)")
	fs.BoolVar(&o.skipSymbolization, "skip-symbolization", false, "write the unsymbolized profile (address ranges and branches)")
	fs.Int32SliceVar(&o.pids, "pid", nil, "keep only samples of these processes (repeatable or comma-separated)")
	fs.StringVar(&o.format, "format", "extbinary", "output format: extbinary, binary, text, pprof (call-stack input)")
	_ = fs.MarkHidden("pd")
	_ = fs.MarkHidden("ps")
	_ = fs.MarkHidden("up")
}

func (o *rootOptions) validate() error {
	switch {
	case len(o.binaries) == 0:
		return fmt.Errorf("--binary is required")
	case o.output == "":
		return fmt.Errorf("--output is required")
	case countSet(o.perfScript, o.perfData, o.unsymbolizedProfile) != 1:
		return fmt.Errorf("give exactly one of --perfscript, --perfdata and --unsymbolized-profile")
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
			opts.formatSet = cmd.Flags().Changed("format")
			return runRoot(cmd.Context(), opts)
		},
	}
	opts.AddFlags(cmd.Flags())
	cmd.SetArgs(llvmStyleArgs(os.Args[1:]))
	addCPUProfileFlag(cmd)
	addProfdataCommands(cmd)
	return cmd
}

func runRoot(ctx context.Context, opts *rootOptions) error {
	if err := opts.validate(); err != nil {
		return err
	}
	stacks, err := opts.isCallStackInput()
	if err != nil {
		return err
	}
	if stacks {
		return runCallStacks(ctx, opts)
	}
	if opts.perfData != "" {
		return fmt.Errorf("--perfdata %s: LBR perf.data is not supported yet; run perf script --show-mmap-events --show-task-events -F pid,ip,brstack and use --perfscript", opts.perfData)
	}
	if len(opts.binaries) > 1 {
		return fmt.Errorf("--binary: several binaries are supported for call-stack input only")
	}
	bin, closeBin, err := openBinary(opts.binaries[0], opts.debugBinary)
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
		UseMD5:              opts.useMD5,
		Stdin:               os.Stdin,
		Stderr:              os.Stderr,
	})
}

// isCallStackInput tells call-stack samples (perf record -g) from LBR input.
func (o *rootOptions) isCallStackInput() (bool, error) {
	if o.unsymbolizedProfile != "" || o.skipSymbolization {
		return false, nil
	}
	return stackpipe.IsCallStackInput(o.stackConfig())
}

func (o *rootOptions) stackConfig() stackpipe.Config {
	return stackpipe.Config{
		PerfScript: o.perfScript, PerfData: o.perfData, PerfBinary: o.perfBinary,
		Binaries: o.binaries, Output: o.output, Format: o.format, Stderr: os.Stderr,
	}
}

// runCallStacks converts call-stack samples to LLVM text or pprof.
func runCallStacks(ctx context.Context, o *rootOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	cfg := o.stackConfig()
	if cfg.Format == "extbinary" && !o.formatSet {
		cfg.Format = "text"
	}
	return stackpipe.Run(ctx, cfg)
}

func countSet(values ...string) int {
	n := 0
	for _, v := range values {
		if v != "" {
			n++
		}
	}
	return n
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
