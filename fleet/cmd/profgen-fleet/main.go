// Command profgen-fleet converts the recordings and raws of a fleet into
// profiles, one per build id, as an Apache Beam pipeline (package
// fleet/pipeline): on the embedded prism runner by default, or on any
// Beam runner (Flink, Spark, Dataflow) through Beam's own flags.
//
// Usage:
//
//	profgen-fleet --input 'hosts/*.data' [--input ...] [--input-list FILE]
//	              [--binary BIN ... | --binary-dir DIR ...]
//	              [--format text,extbinary,pprof] [--sample-type TYPE]
//	              [--skip-bad-inputs] -o DIR
//	              [Beam flags: --runner, --endpoint, --environment_type, ...]
//
// Inputs are perf.data or perf script recordings (LBR, call stacks,
// hybrid), continuous profilers' profiles (pprof, OTLP: their call
// stacks), address profiles (profgen --skip-symbolization), .profraw and
// indexed .profdata files. Each build id's profile is written once per
// format into DIR, under the profile's kind (lbr, cs, stacks):
// <kind>/<build id>.text, .extbinary, .binary, .afdo, .pb.gz;
// instrumentation profiles as instr/<binary id>.profdata. fleet/README.md
// has the details and the runners' commands.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/profgen/profgen/fleet/pipeline"

	// Beam's filesystems of object stores and its cluster runners, beside
	// the local filesystem, prism and universal that the pipeline links.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
)

// listFlag is a repeatable flag; each value may be a comma list when
// commas is set.
type listFlag struct {
	values *[]string
	commas bool
}

func (l listFlag) String() string {
	if l.values == nil {
		return ""
	}
	return strings.Join(*l.values, ",")
}

func (l listFlag) Set(v string) error {
	if !l.commas {
		*l.values = append(*l.values, v)
		return nil
	}
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l.values = append(*l.values, s)
		}
	}
	return nil
}

// addFlags adds profgen-fleet's flags to fs, beside Beam's.
func addFlags(fs *flag.FlagSet, o *pipeline.Options) {
	fs.Var(listFlag{values: &o.Inputs}, "input", "input file or glob, local or gs://, s3:// (repeatable)")
	fs.StringVar(&o.InputList, "input-list", "", "file naming the inputs (files or globs), one a line")
	fs.Var(listFlag{values: &o.Binaries}, "binary", "profiled binary (repeatable); none: binaries are found by build id")
	fs.Var(listFlag{values: &o.BinaryDirs}, "binary-dir", "directory where binaries are found by build id, before DEBUGINFOD_URLS (repeatable)")
	fs.Var(listFlag{values: &o.Formats, commas: true}, "format", "output formats, repeatable or a comma list: "+strings.Join(pipeline.Formats, ", ")+" (default extbinary)")
	fs.StringVar(&o.OutDir, "o", "", "output directory: one file per build id and format")
	fs.BoolVar(&o.SkipBadInputs, "skip-bad-inputs", false, "count and skip inputs that cannot be read instead of failing")
	fs.StringVar(&o.SampleType, "sample-type", "", "sample type of pprof and OTLP inputs, TYPE or TYPE/UNIT (default: CPU samples, else CPU time)")
}

func main() {
	var o pipeline.Options
	addFlags(flag.CommandLine, &o)
	// Beam's runners log every step of a job at level info; by default
	// only warnings and errors (a failed input among them) are shown.
	flag.StringVar(&beamlog.LogLevel, "log_level", "warn", "Beam's log level: debug, info, warn or error")
	flag.Parse()
	beam.Init()
	if len(o.Formats) == 0 {
		o.Formats = []string{"extbinary"}
	}
	sum, err := pipeline.Run(context.Background(), o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "profgen-fleet:", err)
		os.Exit(1)
	}
	sum.Print(os.Stderr)
}
