package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/instrprof/text"
)

// mergeOptions are the flags of `profgen merge`, named as llvm-profdata's.
type mergeOptions struct {
	output        string
	text          bool
	binary        string // --binary[=PATH]: output format, or the binary to match
	binaryFile    string
	weighted      []string
	inputFiles    string
	threads       int
	failureMode   string
	matchBinaryID bool
	sparse        bool
	extbinary     bool // sample profiles: llvm-profdata's --extbinary
	useMD5        bool // sample profiles: MD5 names (extbinary)
	sample        bool // llvm-profdata's --sample; the kind is told by magic anyway
}

// binaryFormatOnly is --binary given without a path (llvm's format flag).
const binaryFormatOnly = "\x00format"

func (o *mergeOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVarP(&o.output, "output", "o", "-", "output file (\"-\" = stdout)")
	fs.BoolVar(&o.text, "text", false, "write the text format instead of indexed .profdata")
	fs.StringVar(&o.binary, "binary", "", "with no value: write indexed .profdata (the default); with a path: the binary for --match-binary-id")
	fs.Lookup("binary").NoOptDefVal = binaryFormatOnly
	fs.StringVar(&o.binaryFile, "binary-file", "", "unstripped binary built with -mllvm -profile-correlate=binary, for counters-only raws")
	fs.StringArrayVar(&o.weighted, "weighted-input", nil, "W,FILE: merge FILE with weight W (repeatable)")
	fs.StringVarP(&o.inputFiles, "input-files", "f", "", "file listing inputs, one [W,]FILE a line, # comments")
	fs.IntVarP(&o.threads, "num-threads", "j", 0, "worker threads (0 = number of CPUs)")
	fs.StringVar(&o.failureMode, "failure-mode", "any", "any: fail on any damaged input; all: skip damaged inputs, fail only if none merge")
	fs.BoolVar(&o.sparse, "sparse", false, "leave out functions whose counters and bitmap bytes are all zero")
	fs.BoolVar(&o.extbinary, "extbinary", false, "sample profiles: write extbinary (the default for sample profiles)")
	fs.BoolVar(&o.useMD5, "use-md5", false, "sample profiles: MD5 function names (extbinary)")
	fs.BoolVar(&o.sample, "sample", false, "accepted for llvm-profdata compatibility: sample inputs are recognized by their magic")
	fs.BoolVar(&o.matchBinaryID, "match-binary-id", false, "merge only raws whose binary id is the build id of --binary-file (or --binary=PATH); list the others")
}

func newMergeCommand() *cobra.Command {
	var o mergeOptions
	cmd := &cobra.Command{
		Use:   "merge [flags] INPUT...",
		Short: "Merge instrumentation profiles (.profraw, .profdata, directories) into indexed .profdata",
		Long: `Merge clang instrumentation profiles into one indexed .profdata (version 12, as
llvm-profdata-19 writes) or its text form. Inputs are raw profiles (versions
8-10), indexed profiles and directories of them. Files are streamed and merged
in parallel; the output is the same for any thread count and input order.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd.ErrOrStderr(), &o, args)
		},
	}
	o.AddFlags(cmd.Flags())
	return cmd
}

func runMerge(stderr io.Writer, o *mergeOptions, args []string) error {
	opts, err := o.mergeOpts()
	if err != nil {
		return err
	}
	inputs, err := o.inputs(args)
	if err != nil {
		return err
	}
	kind, err := classifyMergeInputs(inputPaths(inputs))
	if err != nil {
		return err
	}
	if kind == kindSample {
		return runMergeSampleInputs(stderr, o, inputs)
	}
	res, err := merge.Run(inputs, opts)
	if err != nil {
		return err
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(stderr, "profgen merge: skipped %s: %s\n", s.Path, s.Reason)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "profgen merge: warning: %s\n", w)
	}
	fmt.Fprintf(stderr, "profgen merge: %s\n", res.Summary())
	if res.Merged == 0 {
		return errors.New("no profile can be merged")
	}
	if o.sparse {
		res.Profile.DropZero()
	}
	return writeProfile(o, res)
}

func writeProfile(o *mergeOptions, res *merge.Result) error {
	out, err := atomicfile.Create(o.output)
	if err != nil {
		return err
	}
	defer out.Abort()
	if o.text {
		err = text.Write(out, res.Profile)
	} else {
		err = indexed.Write(out, res.Profile)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", o.output, err)
	}
	return out.Commit()
}

func (o *mergeOptions) mergeOpts() (merge.Options, error) {
	opts := merge.Options{Threads: o.threads}
	if opts.Threads <= 0 {
		opts.Threads = runtime.NumCPU()
	}
	switch o.failureMode {
	case "any":
	case "all", "warn":
		opts.KeepGoing = true
	default:
		return opts, fmt.Errorf("--failure-mode=%q: want any or all", o.failureMode)
	}
	if o.binaryFile != "" {
		c, err := raw.OpenCorrelation(o.binaryFile)
		if err != nil && !o.matchBinaryID {
			return opts, err
		}
		opts.Correlation = c
	}
	if o.matchBinaryID {
		bin := o.binary
		if bin == "" || bin == binaryFormatOnly {
			bin = o.binaryFile
		}
		if bin == "" {
			return opts, errors.New("--match-binary-id needs --binary-file=PATH or --binary=PATH")
		}
		id, err := merge.BuildID(bin)
		if err != nil {
			return opts, err
		}
		opts.MatchID = id
	}
	return opts, nil
}

// inputs collects the inputs: arguments, --weighted-input, --input-files;
// directories are walked (sorted) for every regular file.
func (o *mergeOptions) inputs(args []string) ([]merge.Input, error) {
	var in []merge.Input
	for _, a := range args {
		if rsp, ok := strings.CutPrefix(a, "@"); ok {
			list, err := readInputList(rsp)
			if err != nil {
				return nil, err
			}
			in = append(in, list...)
			continue
		}
		in = append(in, merge.Input{Path: a, Weight: 1})
	}
	for _, w := range o.weighted {
		i, err := parseWeighted(w)
		if err != nil {
			return nil, fmt.Errorf("--weighted-input=%s: %w", w, err)
		}
		in = append(in, i)
	}
	if o.inputFiles != "" {
		list, err := readInputList(o.inputFiles)
		if err != nil {
			return nil, err
		}
		in = append(in, list...)
	}
	if len(in) == 0 {
		return nil, errors.New("no input files")
	}
	return expandDirs(in)
}

func parseWeighted(s string) (merge.Input, error) {
	w, file, ok := strings.Cut(s, ",")
	if !ok || file == "" {
		return merge.Input{}, errors.New("want W,FILE")
	}
	n, err := strconv.ParseUint(w, 10, 64)
	if err != nil || n == 0 {
		return merge.Input{}, fmt.Errorf("weight %q is not a positive integer", w)
	}
	return merge.Input{Path: file, Weight: n}, nil
}

func readInputList(path string) ([]merge.Input, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("input list: %w", err)
	}
	defer f.Close()
	var in []merge.Input
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i, err := parseWeighted(line); err == nil {
			in = append(in, i)
		} else {
			in = append(in, merge.Input{Path: line, Weight: 1})
		}
	}
	return in, sc.Err()
}

func expandDirs(in []merge.Input) ([]merge.Input, error) {
	var out []merge.Input
	for _, i := range in {
		st, err := os.Stat(i.Path)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, i)
			continue
		}
		var files []string
		err = filepath.WalkDir(i.Path, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		for _, f := range files {
			out = append(out, merge.Input{Path: f, Weight: i.Weight})
		}
	}
	return out, nil
}

// inputPaths lists the paths of the inputs.
func inputPaths(in []merge.Input) []string {
	paths := make([]string, len(in))
	for i, x := range in {
		paths[i] = x.Path
	}
	return paths
}

// runMergeSampleInputs merges sample profiles, as llvm-profdata merge
// --sample, with the same input and output flags.
func runMergeSampleInputs(stderr io.Writer, o *mergeOptions, in []merge.Input) error {
	format, err := sampleOutputFormat(o.text, o.binary == binaryFormatOnly, o.extbinary)
	if err != nil {
		return err
	}
	inputs := make([]sampleInput, len(in))
	for i, x := range in {
		inputs[i] = sampleInput{path: x.Path, weight: x.Weight}
	}
	opts := sampleMergeOptions{output: o.output, format: format, useMD5: o.useMD5, warn: stderr}
	if err := runMergeSample(opts, inputs); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "profgen merge: %d sample profiles merged\n", len(inputs))
	return nil
}
