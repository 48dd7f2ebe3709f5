package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/profshow"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// showOptions are the flags of profgen show.
type showOptions struct {
	function string
	json     bool
	top      int
}

func (o *showOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.function, "function", "", "show one function's body and inline tree (linkage or demangled name)")
	fs.BoolVar(&o.json, "json", false, "write JSON for scripts")
	fs.IntVar(&o.top, "top", 10, "number of hottest functions in the summary")
}

// newShowCommand returns profgen show: a profile's summary or one function.
func newShowCommand() *cobra.Command {
	var opts showOptions
	cmd := &cobra.Command{
		Use:   "show PROFILE",
		Short: "Summarize a sample profile (text, binary or extbinary) or show one function",
		Long: `Show summarizes a sample profile: number of functions, total samples,
LLVM's hot and cold count thresholds (as the compiler's profile summary
computes them) and the hottest functions with demangled names. With
--function it prints one function's body counts, call targets and inline tree.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runShow(cmd.OutOrStdout(), opts, args[0])
		},
	}
	opts.AddFlags(cmd.Flags())
	return cmd
}

func runShow(w io.Writer, opts showOptions, path string) error {
	p, format, err := readSampleProfile(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	if opts.function != "" {
		f, err := profshow.FindFunction(p, opts.function)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		err = writeShow(bw, opts.json, f, func() error { return profshow.WriteFunction(bw, f) })
		if err != nil {
			return err
		}
		return bw.Flush()
	}
	s := profshow.Summarize(p, format.String(), opts.top)
	if err := writeShow(bw, opts.json, s, func() error { return profshow.WriteSummary(bw, s) }); err != nil {
		return err
	}
	return bw.Flush()
}

func writeShow(w io.Writer, asJSON bool, v any, text func() error) error {
	if asJSON {
		return profshow.WriteJSON(w, v)
	}
	return text()
}

// readSampleProfile reads a sample profile in any format and tells which.
func readSampleProfile(path string) (*sampleprof.Profile, sampleprof.Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, sampleprof.FormatUnknown, err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	format := sampleprof.Detect(head[:n])
	if format == sampleprof.FormatUnknown {
		return nil, format, fmt.Errorf("%s: not an LLVM sample profile (text, binary or extbinary)", path)
	}
	p, err := sampleprof.ReadFile(path)
	return p, format, err
}
