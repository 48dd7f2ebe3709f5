// Package stackpipe is the call-stack conversion, wired end to end: perf
// script text (or a perf.data run through perf script) with call chains,
// plus the profiled binaries, becomes LLVM sample profiles (one per binary)
// or one pprof profile.
//
// Flow: perfdata (optional) -> callstack (parse, per-PID address spaces,
// aggregate) -> symbolize -> stackgen or pprofout -> atomicfile.
package stackpipe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/callstack"
	"github.com/profgen/profgen/internal/perfdata"
	"github.com/profgen/profgen/internal/pprofout"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/stackgen"
)

// Config is one conversion.
type Config struct {
	PerfScript string    // perf script text ("-" for stdin), or
	PerfData   string    // a perf.data file, run through perf script
	PerfBinary string    // perf executable for PerfData ("" = perf on PATH)
	Binaries   []string  // profiled binaries
	Output     string    // file, directory or pattern with %b (see OutputPath)
	Format     string    // "text" (LLVM text) or "pprof"
	Stderr     io.Writer // warnings; nil discards them
}

// Run performs the conversion described by cfg.
func Run(ctx context.Context, cfg Config) error {
	if len(cfg.Binaries) == 0 {
		return errors.New("no --binary given")
	}
	bins, err := openBinaries(cfg.Binaries)
	if err != nil {
		return err
	}
	defer closeBinaries(bins)
	counts, err := aggregate(ctx, cfg, bins)
	if err != nil {
		return err
	}
	warn(cfg.Stderr, counts)
	if len(counts.Stacks) == 0 {
		return fmt.Errorf("no samples in %s", strings.Join(cfg.Binaries, ", "))
	}
	switch cfg.Format {
	case "pprof":
		return writePprof(cfg.Output, counts, bins)
	case "text", "":
		return writeLLVM(cfg.Output, counts, bins)
	}
	return fmt.Errorf("format %q is not supported for call-stack samples (use text or pprof)", cfg.Format)
}

func aggregate(ctx context.Context, cfg Config, bins []*profiledBinary) (*callstack.Counts, error) {
	in, name, err := openInput(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	layouts := make([]callstack.Binary, len(bins))
	for i, b := range bins {
		layouts[i] = b.layout
	}
	a := callstack.NewAggregator(layouts)
	r := callstack.NewScriptReader(in, name)
	for r.Next() {
		if err := a.Add(r.Record()); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, r.Line(), err)
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return a.Counts(), nil
}

// warn reports frames that matched a binary by path but not its code.
func warn(w io.Writer, c *callstack.Counts) {
	if w == nil || c.Unplaced == 0 {
		return
	}
	fmt.Fprintf(w, "profgen: warning: %d frames of the profiled binaries fall outside their code "+
		"(a different build than the one recorded, or absolute addresses without --show-mmap-events)\n", c.Unplaced)
}

func openInput(ctx context.Context, cfg Config) (io.ReadCloser, string, error) {
	switch {
	case cfg.PerfData != "" && cfg.PerfScript != "":
		return nil, "", errors.New("give either --perfscript or --perfdata, not both")
	case cfg.PerfData != "":
		r, err := openPerfData(ctx, cfg)
		return r, cfg.PerfData, err
	case cfg.PerfScript == "-":
		return io.NopCloser(os.Stdin), "stdin", nil
	case cfg.PerfScript != "":
		f, err := os.Open(cfg.PerfScript)
		return f, cfg.PerfScript, err
	}
	return nil, "", errors.New("no input: give --perfscript or --perfdata")
}

func openPerfData(ctx context.Context, cfg Config) (io.ReadCloser, error) {
	c, err := perfdata.ReadContent(cfg.PerfData)
	if err != nil {
		return nil, err
	}
	if c.BranchStack {
		return nil, fmt.Errorf("%s has branch stacks (LBR): that is the LBR conversion, not the call-stack one", cfg.PerfData)
	}
	if !c.Callchain {
		return nil, fmt.Errorf("%s has no call chains: record with perf record -g", cfg.PerfData)
	}
	opts := perfdata.Options{Perf: cfg.PerfBinary}
	if err := checkBuildIDs(ctx, cfg, opts); err != nil {
		return nil, err
	}
	return perfdata.Open(ctx, cfg.PerfData, perfdata.ScriptArgs(c), opts)
}

// checkBuildIDs refuses a binary whose build id differs from the one perf
// recorded for a DSO of the same base name: its addresses would be read
// against the wrong code.
func checkBuildIDs(ctx context.Context, cfg Config, opts perfdata.Options) error {
	recorded, err := perfdata.BuildIDs(ctx, cfg.PerfData, opts)
	if err != nil {
		return err
	}
	for _, bin := range cfg.Binaries {
		if err := matchBuildID(bin, recorded); err != nil {
			return err
		}
	}
	return nil
}

func matchBuildID(bin string, recorded map[string]string) error {
	id, err := fileBuildID(bin)
	if err != nil || id == "" {
		return err
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

func writePprof(out string, counts *callstack.Counts, bins []*profiledBinary) error {
	pbs := make([]pprofout.Binary, len(bins))
	for i, b := range bins {
		pbs[i] = b.pprofBinary()
	}
	p := pprofout.Build(counts, pbs)
	return writeFile(out, func(w io.Writer) error { return p.Write(w) })
}

// writeLLVM writes one LLVM sample profile per binary.
func writeLLVM(out string, counts *callstack.Counts, bins []*profiledBinary) error {
	syms := make([]stackgen.Symbolizer, len(bins))
	for i, b := range bins {
		syms[i] = b.sym
	}
	profs := stackgen.Generate(counts, syms)
	for i, b := range bins {
		path, err := OutputPath(out, b.path, len(bins))
		if err != nil {
			return err
		}
		p := profs[i]
		if err := writeFile(path, func(w io.Writer) error { return sampleprof.WriteText(w, p) }); err != nil {
			return err
		}
	}
	return nil
}

// OutputPath names the LLVM profile of binary. With one binary, out is the
// file. With several: out containing "%b" is a pattern (%b = the binary's
// base name), an existing directory gets <base>.prof files; anything else
// is an error, so that profiles never overwrite each other.
func OutputPath(out, binary string, nbins int) (string, error) {
	base := filepath.Base(binary)
	if strings.Contains(out, "%b") {
		return strings.ReplaceAll(out, "%b", base), nil
	}
	if st, err := os.Stat(out); err == nil && st.IsDir() {
		return filepath.Join(out, base+".prof"), nil
	}
	if nbins == 1 {
		return out, nil
	}
	return "", fmt.Errorf("%d binaries need one output each: make -o a directory or a pattern with %%b", nbins)
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}
