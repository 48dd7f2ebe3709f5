// Package pipeline is profgen-fleet: profgen's conversion as an Apache
// Beam pipeline, for recordings and raws of a whole fleet. It reuses
// profgen's stages (internal/driver, addrprof, profmerge); Beam only
// distributes them.
//
// In: Options (input globs or a list, on any Beam filesystem; binaries or
// where to find them; formats; an output directory). Flow, one function
// (Build):
//
//	fileio.MatchAll      input globs → file names and sizes
//	readFn      (ParDo)  a file → (key, its address profile or raw), key =
//	                     kind and build ids of the binaries it counts
//	mergeFn     (CombinePerKey)  the profiles of a key → their merge
//	writeFn     (ParDo)  a key's merge → <build id>.<ext> files in OutDir
//	summaryFn   (Combine) the reads' and writes' reports → the Summary,
//	                     written to OutDir/profgen-fleet-summary.json
//
// Out: the files, each written whole or not at all, and the Summary, read
// back from the file the pipeline wrote.
package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"

	// The runtime, the local filesystem and the runners every build has:
	// prism (embedded, the default) and universal (a job service).
	// cmd/profgen-fleet adds the others and the object stores.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/exec/optimized"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
)

// defaultRunner runs the pipeline when --runner is not given.
const defaultRunner = "prism"

func init() {
	register.DoFn4x1[context.Context, fileio.FileMetadata, func(string, []byte), func(string), error](&readFn{})
	register.Emitter2[string, []byte]()
	register.Emitter1[string]()
	register.Combiner3[accumulator, []byte, []byte](&mergeFn{})
	register.DoFn4x1[context.Context, string, []byte, func(string), error](&writeFn{})
	register.Combiner3[*Summary, string, string](&summaryFn{})
	register.DoFn2x1[context.Context, string, error](&writeSummaryFn{})
	beam.RegisterCoder(accumulatorType, encodeAccumulator, decodeAccumulator)
	beam.RegisterCoder(summaryType, encodeSummaryAccumulator, decodeSummaryAccumulator)
}

// Options say what profgen-fleet converts.
type Options struct {
	Inputs        []string // globs or file names, local or of a Beam filesystem (gs://, s3://)
	InputList     string   // a local file naming inputs, one a line
	Binaries      []string // the profiled binaries; none: found by build id
	BinaryDirs    []string // where binaries are found by build id (then DEBUGINFOD_URLS)
	Formats       []string // text, extbinary, binary, gcc, pprof
	OutDir        string   // the output directory (made, with its parents, if missing)
	SkipBadInputs bool     // count a bad input and go on, instead of failing
	// SampleType is the sample type read of continuous profilers'
	// profiles (pprof, OTLP), as profgen --sample-type; "": CPU.
	SampleType string
}

// Formats lists the --format values profgen-fleet writes.
var Formats = []string{"text", "extbinary", "binary", "gcc", "pprof"}

// Build adds the pipeline to s.
func Build(s beam.Scope, opts Options, patterns []string) {
	files := fileio.MatchAll(s, beam.CreateList(s, patterns), fileio.MatchEmptyDisallow())
	files = beam.Reshuffle(s, files) // spread the inputs over the workers
	profiles, readReports := beam.ParDo2(s, &readFn{Binaries: opts.Binaries, BinaryDirs: opts.BinaryDirs, SkipBad: opts.SkipBadInputs, SampleType: opts.SampleType}, files)
	merged := beam.CombinePerKey(s, &mergeFn{}, profiles)
	writeReports := beam.ParDo(s, &writeFn{Binaries: opts.Binaries, BinaryDirs: opts.BinaryDirs, Formats: opts.Formats, OutDir: opts.OutDir}, merged)
	summary := beam.Combine(s, &summaryFn{}, beam.Flatten(s, readReports, writeReports))
	beam.ParDo0(s, &writeSummaryFn{OutDir: opts.OutDir}, summary)
}

// Run runs the pipeline on the runner Beam's flag --runner names (prism by
// default; the runner's package must be linked in) and returns its
// summary. beam.Init must have been called.
func Run(ctx context.Context, opts Options) (*Summary, error) {
	patterns, err := inputPatterns(opts)
	if err != nil {
		return nil, err
	}
	if err := validate(opts); err != nil {
		return nil, err
	}
	if err := makeOutDir(opts.OutDir); err != nil {
		return nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	Build(s, opts, patterns)
	stop := startProgress(os.Stderr)
	runner := *runners.Runner
	if runner == "" {
		runner = defaultRunner
	}
	res, err := beam.Run(ctx, runner, p)
	stop()
	if err != nil {
		return nil, err
	}
	return readSummary(ctx, opts.OutDir, res.Metrics().AllMetrics().Counters())
}

// inputPatterns are the input globs of opts and of its list.
func inputPatterns(opts Options) ([]string, error) {
	patterns := append([]string(nil), opts.Inputs...)
	if opts.InputList != "" {
		f, err := os.Open(opts.InputList)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
				patterns = append(patterns, l)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", opts.InputList, err)
		}
	}
	if len(patterns) == 0 {
		return nil, fmt.Errorf("no input: give --input or --input-list")
	}
	return patterns, nil
}

// makeOutDir makes a local output directory that does not exist yet, and
// its parents; an object store needs none.
func makeOutDir(dir string) error {
	if isRemote(dir) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-o %s: %v", dir, err)
	}
	return nil
}

// validate refuses what cannot work before the pipeline runs.
func validate(opts Options) error {
	if opts.OutDir == "" {
		return fmt.Errorf("-o (the output directory) is required")
	}
	if st, err := os.Stat(opts.OutDir); err == nil && !st.IsDir() && !isRemote(opts.OutDir) {
		return fmt.Errorf("-o %s: not a directory", opts.OutDir)
	}
	if len(opts.Binaries) > 0 && len(opts.BinaryDirs) > 0 {
		return fmt.Errorf("--binary-dir is where binaries are found without --binary; give one or the other")
	}
	for _, f := range opts.Formats {
		if !slices.Contains(Formats, f) {
			return fmt.Errorf("--format %q: profgen-fleet writes %s", f, strings.Join(Formats, ", "))
		}
	}
	return nil
}
