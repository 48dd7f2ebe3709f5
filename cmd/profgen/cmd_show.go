package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/google/pprof/profile"
	"github.com/profgen/profgen/internal/instrprof/indexed"
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
		Short: "Summarize a sample profile (text, binary, extbinary), a pprof profile or an indexed .profdata, or show one function",
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
	head, err := readHead(path)
	if err != nil {
		return err
	}
	if indexed.IsIndexed(head) {
		return showInstr(w, opts, path)
	}
	if sniffProfile(head) == kindInstr {
		return fmt.Errorf("%s: a raw instrumentation profile; merge it first (profgen merge), show reads indexed .profdata", path)
	}
	format := sampleprof.Detect(head)
	if format == sampleprof.FormatUnknown {
		return showPprof(w, opts, path)
	}
	p, err := sampleprof.ReadFile(path)
	if err != nil {
		return err
	}
	if opts.function != "" {
		return showSampleFunction(w, opts, path, p)
	}
	s := profshow.Summarize(p, format.String(), opts.top)
	return writeShow(w, opts.json, s, func(w io.Writer) error { return profshow.WriteSummary(w, s) })
}

// showInstr summarizes an indexed instrumentation profile, or shows the
// counters of one function.
func showInstr(w io.Writer, opts showOptions, path string) error {
	s, fns, err := profshow.ReadInstr(path)
	if err != nil {
		return err
	}
	if opts.function == "" {
		s.TopInstr(fns, opts.top)
		return writeShow(w, opts.json, s, func(w io.Writer) error { return profshow.WriteInstrSummary(w, s) })
	}
	found := profshow.FindInstrFunctions(fns, opts.function)
	if len(found) == 0 {
		return fmt.Errorf("%s: no function %s", path, opts.function)
	}
	return writeShow(w, opts.json, found, func(w io.Writer) error {
		for _, f := range found {
			profshow.WriteInstrFunction(w, f)
		}
		return nil
	})
}

// showSampleFunction shows a top-level function, or else every instance
// of it inlined somewhere.
func showSampleFunction(w io.Writer, opts showOptions, path string, p *sampleprof.Profile) error {
	f, err := profshow.FindFunction(p, opts.function)
	if in := profshow.FindInlined(p, opts.function); f == nil && len(in) > 0 {
		return writeShow(w, opts.json, in, func(w io.Writer) error { return profshow.WriteInstances(w, opts.function, in) })
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeShow(w, opts.json, f, func(w io.Writer) error { return profshow.WriteFunction(w, f) })
}

// writeShow writes v as JSON, or for people through text, buffered.
func writeShow(w io.Writer, asJSON bool, v any, text func(io.Writer) error) error {
	bw := bufio.NewWriter(w)
	var err error
	if asJSON {
		err = profshow.WriteJSON(bw, v)
	} else {
		err = text(bw)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// showPprof summarizes a pprof profile.
func showPprof(w io.Writer, opts showOptions, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		return fmt.Errorf("%s: neither an LLVM sample profile nor pprof: %w", path, err)
	}
	if opts.function != "" {
		fn, err := profshow.FindPprofFunction(p, opts.function)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return writeShow(w, opts.json, fn, func(w io.Writer) error { return profshow.WritePprofFunction(w, fn) })
	}
	s := profshow.SummarizePprof(p, opts.top)
	return writeShow(w, opts.json, s, func(w io.Writer) error { return profshow.WritePprofSummary(w, s) })
}

// readHead returns the first bytes of the file path, enough to tell
// its format.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return head[:n], nil
}
