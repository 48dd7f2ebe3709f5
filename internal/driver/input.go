package driver

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/perfdata"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/perfsyms"
	"github.com/profgen/profgen/internal/progress"
	"github.com/profgen/profgen/internal/record"
)

// input is what the records are read from: perf script text (a file,
// standard input — a pipe or FIFO works the same: it is only ever read
// forward — or the output of perf script run on a perf.data file), or a
// perf.data file read natively.
type input struct {
	io.Reader // perf script text, when native is nil
	// file is the perf script file when the text is one, which the
	// parallel scan maps (Reader may count what is read of it for the
	// progress line).
	file   *os.File
	name   string
	closer io.Closer // perf's exit status surfaces as a read error
	native *perfdata.Native
	// names names the frames outside the binaries that native leaves
	// unnamed, for the aggregation (aggregate.Stacks.NameWith).
	names    aggregate.Namer
	progress *progress.Line
	profiles *profileRecords // the --profile files, when they are the input
}

func (in *input) Close() error { return in.closer.Close() }

func (in *input) records() record.Source {
	if in.profiles != nil {
		return in.profiles
	}
	if in.native != nil {
		return in.progressRecords()
	}
	return perfscript.NewScanner(in.Reader, in.name)
}

func openInput(ctx context.Context, p *plan, bins *binaries) (*input, error) {
	switch {
	case p.src.kind == fromPerfData:
		return openPerfData(ctx, p, bins)
	case p.src.kind == fromProfiles:
		r := newProfileRecords(p, bins)
		return &input{name: p.src.name(), closer: io.NopCloser(nil), profiles: r, names: r.names}, nil
	case p.src.path == "-":
		return &input{Reader: p.Stdin, name: "<stdin>", closer: io.NopCloser(nil)}, nil
	}
	f, err := os.Open(p.src.path)
	if err != nil {
		return nil, err
	}
	return &input{Reader: f, file: f, name: p.src.path, closer: f}, nil
}

// openPerfData opens a perf.data file, natively or through perf script
// (--use-perf-script), after checking it holds what the request needs.
func openPerfData(ctx context.Context, p *plan, bins *binaries) (*input, error) {
	c, err := perfdata.ReadContent(p.src.path)
	if err != nil {
		return nil, err
	}
	for _, o := range p.outputs {
		if err := checkContent(o, c); err != nil {
			return nil, err
		}
	}
	if !p.src.usePerfScript {
		return openNative(p, c, bins)
	}
	popts := perfdata.Options{Perf: p.src.perfBinary}
	recorded, err := perfdata.BuildIDs(ctx, p.src.path, popts)
	if err != nil {
		return nil, err
	}
	if err := checkBuildIDs(recorded, bins); err != nil {
		return nil, err
	}
	r, err := perfdata.Open(ctx, p.src.path, perfdata.ScriptArgs(c), popts)
	if err != nil {
		return nil, err
	}
	return &input{Reader: r, name: p.src.path, closer: r}, nil
}

// openNative reads the perf.data file without perf.
func openNative(p *plan, c perfdata.Content, bins *binaries) (*input, error) {
	n, err := perfdata.OpenNative(p.src.path, c)
	if err != nil {
		return nil, err
	}
	ids := n.BuildIDs()
	if err := checkBuildIDs(ids, bins); err != nil {
		n.Close()
		return nil, err
	}
	names := perfsyms.New(ids)
	n.SetSymbolNamer(names)
	n.DeferChainSymbols()
	return &input{name: p.src.path, closer: n, native: n, names: names}, nil
}

// checkBuildIDs refuses a binary whose build id differs from the one perf
// recorded for a DSO of the same base name: its addresses would be read
// against the wrong code.
func checkBuildIDs(recorded map[string]string, bins *binaries) error {
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

// checkContent refuses an output that a perf.data of content c cannot
// give.
func checkContent(o *output, c perfdata.Content) error {
	if o.format == formatAddress && !c.BranchStack && !c.Callchain {
		return fmt.Errorf("%s has neither branch stacks nor call chains: --skip-symbolization needs perf record -b or -g", o.src.path)
	}
	if o.format == formatPprof && c.BranchStack && !c.Callchain {
		return fmt.Errorf("%s has branch stacks but no call chains: --format=pprof needs perf record -g", o.src.path)
	}
	return nil
}
