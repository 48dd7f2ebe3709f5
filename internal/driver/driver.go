// Package driver is profgen's perf-to-profile pipeline in one place: open
// the inputs, stream perf script records through the per-process address
// spaces into the LBR aggregation, and write the result.
//
// In: Options (file names, the binary, filters). Out: the output file
// (through atomicfile) and a summary of what was used and dropped.
package driver

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/atomicfile"
	"github.com/profgen/profgen/internal/perfscript"
	"github.com/profgen/profgen/internal/rawprof"
)

// Binary is what the pipeline needs from the profiled ELF binary.
type Binary interface {
	aggregate.Code
	Path() string
	PreferredBase() uint64     // page-rounded vaddr of the first executable segment
	TextSegmentOffset() uint64 // page-rounded file offset of that segment
}

// Options says what to convert.
type Options struct {
	PerfScript          string // perf script text; "-" for standard input
	UnsymbolizedProfile string // or an unsymbolized profile (llvm-profgen --skip-symbolization output)
	Binary              Binary
	Output              string // "-" for standard output
	SkipSymbolization   bool
	PIDs                []int32 // keep only these processes; empty: all
	Format              string
	UseMD5              bool // extbinary: MD5 function names

	Stdin  io.Reader
	Stderr io.Writer
}

// ErrNotImplemented is returned for outputs this build cannot write yet.
var ErrNotImplemented = errors.New("not implemented")

// Run converts the input as opts says.
func Run(opts Options) error {
	counters, err := loadCounters(opts)
	if err != nil {
		return err
	}
	if !opts.SkipSymbolization {
		return writeSampleProfile(opts, counters)
	}
	return writeOutput(opts.Output, func(w io.Writer) error {
		return rawprof.Write(w, counters, opts.Binary.PreferredBase())
	})
}

// loadCounters reads the range and branch counters from the input.
func loadCounters(opts Options) (*aggregate.Counters, error) {
	if opts.UnsymbolizedProfile != "" {
		return readUnsymbolized(opts)
	}
	in, name, closeIn, err := openInput(opts.PerfScript, opts.Stdin)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	sum, err := Aggregate(in, name, opts.Binary, opts.PIDs)
	if err != nil {
		return nil, err
	}
	sum.Print(opts.Stderr, opts.Binary.Path())
	return sum.Counters, nil
}

func readUnsymbolized(opts Options) (*aggregate.Counters, error) {
	in, name, closeIn, err := openInput(opts.UnsymbolizedProfile, opts.Stdin)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	return rawprof.Read(in, name, opts.Binary.PreferredBase())
}

func openInput(path string, stdin io.Reader) (io.Reader, string, func(), error) {
	if path == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		return stdin, "<stdin>", func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", nil, err
	}
	return f, path, func() { f.Close() }, nil
}

func writeOutput(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// Aggregate streams perf script records from r through the per-process
// address spaces into LBR counters.
func Aggregate(r io.Reader, name string, bin Binary, pids []int32) (*Summary, error) {
	table := addrspace.New(addrspace.Binary{
		Path:          bin.Path(),
		PreferredBase: bin.PreferredBase(),
		TextOffset:    bin.TextSegmentOffset(),
	}, pids)
	agg := aggregate.New(bin)
	counter := newCounter(agg)
	sum := &Summary{}
	s := perfscript.NewScanner(r, name)
	for s.Next() {
		rec := s.Record()
		if rec.Kind != perfscript.KindSample {
			table.Update(rec)
			continue
		}
		sum.addSample(rec, table, counter)
	}
	counter.Finish()
	if err := s.Err(); err != nil {
		return nil, err
	}
	sum.Counters = agg.Counters()
	sum.Agg, sum.Scan, sum.Table = agg.Stats, s.Stats(), table.Stats
	return sum, nil
}

func (sum *Summary) addSample(rec *perfscript.Record, table *addrspace.Table, agg *counter) {
	smp := &rec.Sample
	sum.Samples += smp.Count
	if smp.BadBranch {
		sum.BadBranchLines++
	}
	if len(smp.Branches) == 0 {
		sum.NoLBR += smp.Count
		return
	}
	if len(smp.Frames) > 0 {
		sum.WithCallChain += smp.Count
	}
	delta, why := table.Delta(rec.HasPID, rec.PID)
	switch why {
	case addrspace.NoMapping:
		sum.NoMapping += smp.Count
		return
	case addrspace.FilteredPID:
		sum.Filtered += smp.Count
		return
	}
	agg.Add(smp.Branches, delta, smp.Count)
}
