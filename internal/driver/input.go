package driver

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/profgen/profgen/internal/perfdata"
)

// input is the perf script text being read: a file, standard input (a
// pipe or FIFO works the same: it is only ever read forward), or the
// output of perf script run on a perf.data file.
type input struct {
	io.Reader
	name   string
	closer io.Closer // perf's exit status surfaces as a read error
}

func (in *input) Close() error { return in.closer.Close() }

func openInput(ctx context.Context, opts Options, bins *binaries) (*input, error) {
	switch {
	case opts.PerfData != "":
		return openPerfData(ctx, opts, bins)
	case opts.PerfScript == "-":
		return &input{Reader: opts.Stdin, name: "<stdin>", closer: io.NopCloser(nil)}, nil
	}
	f, err := os.Open(opts.PerfScript)
	if err != nil {
		return nil, err
	}
	return &input{Reader: f, name: opts.PerfScript, closer: f}, nil
}

// openPerfData runs perf script on a perf.data file with the fields its
// samples carry, after checking it holds what the request needs.
func openPerfData(ctx context.Context, opts Options, bins *binaries) (*input, error) {
	c, err := perfdata.ReadContent(opts.PerfData)
	if err != nil {
		return nil, err
	}
	if opts.SkipSymbolization && !c.BranchStack {
		return nil, fmt.Errorf("%s has no branch stacks: --skip-symbolization needs an LBR recording (perf record -b)", opts.PerfData)
	}
	if opts.Format == "pprof" && c.BranchStack && !c.Callchain {
		return nil, fmt.Errorf("%s has branch stacks but no call chains: --format=pprof needs perf record -g", opts.PerfData)
	}
	popts := perfdata.Options{Perf: opts.PerfBinary}
	if err := checkBuildIDs(ctx, opts.PerfData, bins, popts); err != nil {
		return nil, err
	}
	r, err := perfdata.Open(ctx, opts.PerfData, perfdata.ScriptArgs(c), popts)
	if err != nil {
		return nil, err
	}
	return &input{Reader: r, name: opts.PerfData, closer: r}, nil
}

// checkBuildIDs refuses a binary whose build id differs from the one perf
// recorded for a DSO of the same base name: its addresses would be read
// against the wrong code.
func checkBuildIDs(ctx context.Context, path string, bins *binaries, opts perfdata.Options) error {
	recorded, err := perfdata.BuildIDs(ctx, path, opts)
	if err != nil {
		return err
	}
	for _, f := range bins.files {
		if err := matchBuildID(f.Path(), f.BuildIDHex(), recorded); err != nil {
			return err
		}
	}
	return nil
}

func matchBuildID(bin, id string, recorded map[string]string) error {
	if id == "" {
		return nil
	}
	var other string
	for path, rid := range recorded {
		if filepath.Base(path) != filepath.Base(bin) {
			continue
		}
		if rid == id {
			return nil
		}
		other = path + " (" + rid + ")"
	}
	if other != "" {
		return fmt.Errorf("binary %s has build id %s, but the recording has %s", bin, id, other)
	}
	return nil
}
