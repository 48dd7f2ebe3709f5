package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/profshow"
)

// showOptions are the flags of profgen show: llvm-profdata show's, with its
// defaults, and profgen's own --json and --top.
type showOptions struct {
	profshow.Options
}

func (o *showOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Function, "function", "", "functions whose name contains this (.profdata, as llvm-profdata); a sample or pprof function's body and inline tree")
	fs.StringVarP(&o.Output, "output", "o", "-", "output file")
	fs.BoolVar(&o.LLVM.AllFunctions, "all-functions", false, "details for every function")
	fs.BoolVar(&o.LLVM.Counts, "counts", false, "show the counter values of the functions shown")
	fs.IntVar(&o.LLVM.TopN, "topn", 0, "show the N functions with the largest counts (default 0: none)")
	fs.BoolVar(&o.LLVM.DetailedSummary, "detailed-summary", false, "show the detailed profile summary")
	fs.Var(newCutoffList(&o.LLVM.DetailedCutoffs), "detailed-summary-cutoffs", "cutoffs (parts per million, comma-separated) of the detailed summary (default: LLVM's 16)")
	fs.BoolVar(&o.LLVM.ICTargets, "ic-targets", false, "show indirect call site target values of the functions shown")
	fs.BoolVar(&o.LLVM.MemOPSizes, "memop-sizes", false, "show memory intrinsic size values of the functions shown")
	fs.BoolVar(&o.LLVM.ShowCS, "showcs", false, "show context-sensitive records instead of the others (hidden by default, as llvm)")
	fs.BoolVar(&o.LLVM.ShowProfSymList, "show-prof-sym-list", false, "with --sample: show the profile symbol list")
	fs.BoolVar(&o.LLVM.Covered, "covered", false, "show only the names of functions with a nonzero counter")
	fs.Uint64Var(&o.LLVM.ValueCutoff, "value-cutoff", 0, "functions whose largest counter is below this are counted apart (default 0)")
	fs.BoolVar(&o.LLVM.ListBelowCutoff, "list-below-cutoff", false, "list the functions below --value-cutoff")
	fs.BoolVar(&o.LLVM.BinaryIDs, "binary-ids", false, "show the binary ids")
	fs.BoolVar(&o.LLVM.ProfileVersion, "profile-version", false, "show the profile's format version")
	fs.BoolVar(&o.LLVM.HotFuncList, "hot-func-list", false, "with --sample: show the hot functions")
	fs.BoolVar(&o.LLVM.VTables, "show-vtables", false, "show vtable value profiles of the functions shown")
	fs.BoolVar(&o.LLVM.TemporalTraces, "temporal-profile-traces", false, "show the temporal profile traces")
	fs.BoolVar(&o.LLVM.Text, "text", false, "show the functions shown in the text format")
	fs.BoolVar(&o.LLVM.ShowSecInfoOnly, "show-sec-info-only", false, "sample profiles: show the extbinary section table only")
	choiceVar(fs, &o.Kind, map[string]string{
		"instr":  "the profile is an instrumentation profile (llvm's default; profgen tells by magic and refuses another kind)",
		"sample": "the profile is a sample profile: shown as llvm-profdata show --sample prints it (without it, profgen's summary)",
		"memory": "the profile is a MemProf profile (raw, with --profiled-binary, or indexed): shown as llvm-profdata show --memory prints it",
	}, "instr", "sample", "memory")
	fs.StringVar(&o.ProfiledBinary, "profiled-binary", "", "with --memory: the binary a raw MemProf profile was collected from")
	fs.StringVar(&o.LLVM.ShowFormat, "show-format", "text", "text, or json (with --sample: llvm's JSON of every function); yaml (MemProf) is refused, as llvm does for these profiles")
	llvmVersionVar(fs, &o.LLVM.Version)
	fs.StringVar(&o.DebugInfo.Path, "debug-info", "", "binary built with -g -mllvm -profile-correlate=debug-info: show the functions its DWARF holds profile metadata for (no profile needed)")
	fs.IntVar(&o.DebugInfo.MaxWarnings, "max-debug-info-correlation-warnings", 5, "the most warnings of the DWARF of --debug-info (0: no limit)")
	fs.BoolVar(&o.JSON, "json", false, "profgen: write JSON for scripts")
	fs.IntVar(&o.Top, "top", 0, "profgen: summary with the N hottest functions, demangled (default 0: llvm-profdata's text for .profdata, 10 hottest otherwise)")
}

// newShowCommand returns profgen show: a profile's summary or one function.
func newShowCommand() *cobra.Command {
	var o showOptions
	cmd := &cobra.Command{
		Use:   "show PROFILE",
		Short: "Summarize a sample profile (text, binary, extbinary), a pprof profile or an indexed .profdata, or show one function",
		Long: `Show summarizes a profile. An indexed .profdata is shown as llvm-profdata-22
show prints it, with its flags. A sample profile: number of functions, total
samples, LLVM's hot and cold count thresholds (as the compiler's profile summary
computes them) and the hottest functions with demangled names; with --function
one function's body counts, call targets and inline tree.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f := o.LLVM.ShowFormat; f != "text" && f != "json" && f != "yaml" {
				return usageError{errString("--show-format: " + f + ": want text, json or yaml")}
			}
			o.Stderr = cmd.ErrOrStderr()
			if len(args) == 0 {
				return profshow.Run(cmd.OutOrStdout(), o.Options, "")
			}
			path, done, err := stdinFile(args[0], cmd.InOrStdin())
			if err != nil {
				return err
			}
			defer done()
			return profshow.Run(cmd.OutOrStdout(), o.Options, path)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

// stdinFile returns path, or for "-" (standard input, as llvm-profdata
// reads it) a temporary copy of r, which show reads by path; done removes
// the copy.
func stdinFile(path string, r io.Reader) (string, func(), error) {
	if path != "-" {
		return path, func() {}, nil
	}
	f, err := os.CreateTemp("", "profgen-stdin-*")
	if err != nil {
		return "", nil, err
	}
	done := func() { os.Remove(f.Name()) }
	_, err = io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		done()
		return "", nil, fmt.Errorf("read standard input: %w", err)
	}
	return f.Name(), done, nil
}
