// Package profmerge is `profgen merge`, llvm-profdata merge's drop-in: it
// collects the inputs (arguments, response files, -f lists, weights,
// directories), tells their family by magic (profformat), and sends
// instrumentation profiles to instrprof/merge and sample profiles to
// sampleprof, writing the result atomically. Flags live in cmd/profgen.
package profmerge

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/instrprof/text"
	"github.com/profgen/profgen/internal/profformat"
)

// Options are llvm-profdata merge's settings.
type Options struct {
	Inputs
	Output        string
	Text          bool
	Binary        string // --binary[=PATH]: output format, or the binary to match
	BinaryFile    string
	Threads       int
	FailureMode   string
	MatchBinaryID bool
	Sparse        bool
	ExtBinary     bool // sample profiles: --extbinary
	UseMD5        bool // sample profiles: MD5 names (extbinary)
	Sample        bool // --sample; the kind is told by magic anyway
}

// BinaryFormatOnly is --binary given without a path (llvm's format flag).
const BinaryFormatOnly = "\x00format"

// Run merges the inputs of o (plus args) and writes the output.
func Run(stderr io.Writer, o *Options) error {
	opts, err := o.mergeOpts()
	if err != nil {
		return err
	}
	inputs, err := o.Collect()
	if err != nil {
		return err
	}
	kind, err := Classify(Paths(inputs))
	if err != nil {
		return err
	}
	if kind == profformat.KindSample {
		return mergeSample(stderr, o, inputs)
	}
	return mergeInstr(stderr, o, opts, inputs)
}

func mergeInstr(stderr io.Writer, o *Options, opts merge.Options, inputs []merge.Input) error {
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
	if o.Sparse {
		res.Profile.DropZero()
	}
	return writeInstr(o, res)
}

func writeInstr(o *Options, res *merge.Result) error {
	out, err := atomicfile.Create(o.Output)
	if err != nil {
		return err
	}
	defer out.Abort()
	if o.Text {
		err = text.Write(out, res.Profile)
	} else {
		err = indexed.Write(out, res.Profile)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", o.Output, err)
	}
	return out.Commit()
}

func (o *Options) mergeOpts() (merge.Options, error) {
	opts := merge.Options{Threads: o.Threads}
	if opts.Threads <= 0 {
		opts.Threads = runtime.NumCPU()
	}
	switch o.FailureMode {
	case "any", "":
	case "all", "warn":
		opts.KeepGoing = true
	default:
		return opts, fmt.Errorf("--failure-mode=%q: want any or all", o.FailureMode)
	}
	if o.BinaryFile != "" {
		c, err := raw.OpenCorrelation(o.BinaryFile)
		if err != nil && !o.MatchBinaryID {
			return opts, err
		}
		opts.Correlation = c
	}
	if o.MatchBinaryID {
		id, err := o.matchID()
		if err != nil {
			return opts, err
		}
		opts.MatchID = id
	}
	return opts, nil
}

// matchID is the build id of the binary --match-binary-id compares with.
func (o *Options) matchID() ([]byte, error) {
	bin := o.Binary
	if bin == "" || bin == BinaryFormatOnly {
		bin = o.BinaryFile
	}
	if bin == "" {
		return nil, errors.New("--match-binary-id needs --binary-file=PATH or --binary=PATH")
	}
	return merge.BuildID(bin)
}
