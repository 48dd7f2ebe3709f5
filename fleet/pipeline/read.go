package pipeline

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/profgen/profgen/internal/addrprof"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/contprof"
	"github.com/profgen/profgen/internal/driver"
	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/profformat"
)

// readFn is stage 1, Read: an input file's name and size in (fileio's
// FileMetadata), its profile out as one (key, serialized profile) pair:
//
//   - a perf.data or perf script recording, or a continuous profiler's
//     profile (pprof, OTLP: profgen --profile), becomes its address profile
//     (driver.ToAddressProfile, profgen --skip-symbolization), keyed by the
//     build ids of the binaries it counts (kindLBR, kindCS: the binary the
//     driver used; kindStacks: every binary it holds);
//   - an address profile file (profgen --skip-symbolization output) is
//     passed on: a call-stack one keyed by the build ids it lists, an LBR or
//     CS one (llvm-profgen's format names no binary) by the build id of the
//     one --binary;
//   - a .profraw or indexed .profdata is passed on, keyed by the binary
//     ids it holds (kindInstr).
//
// An input without a usable sample (driver.ErrNoSamples: none in a
// binary) is reported (Summary.Empty) and left out. A bad input fails the
// job with an error naming it, or with SkipBad is reported (Summary.Bad)
// and left out.
type readFn struct {
	Binaries   []string // --binary: the profiled binaries; none: found by build id
	BinaryDirs []string // --binary-dir: where binaries are found by build id
	SkipBad    bool     // --skip-bad-inputs
	SampleType string   // --sample-type: of pprof and OTLP inputs

	finder driver.BinaryFinder // Binaries by build id, else BinaryDirs and debuginfod
	cache  *driver.BinaryCache // the binaries this worker opened
}

// Setup makes the worker's finder and cache of binaries: each binary is
// opened once by the worker, whatever the number of inputs it reads.
func (f *readFn) Setup() error {
	finder, err := newFinder(f.Binaries, f.BinaryDirs)
	f.finder, f.cache = finder, driver.NewBinaryCache()
	return err
}

// Teardown closes the binaries the worker opened.
func (f *readFn) Teardown() error {
	f.cache.Close()
	return nil
}

// ProcessElement reads one input file, and reports it (a summary
// fragment).
func (f *readFn) ProcessElement(ctx context.Context, fm fileio.FileMetadata, emit func(string, []byte), report func(string)) error {
	p, err := f.readInput(ctx, fm.Path)
	switch {
	case err == nil:
		emit(p.key.String(), p.data)
		report(inputReport(fm.Size, p).encode())
	case errors.Is(err, driver.ErrNoSamples):
		report(emptyReport(fm.Path, fm.Size, err).encode())
	case f.SkipBad:
		report(badReport(fm.Path, err).encode())
	default:
		return namingInput(fm.Path, err)
	}
	return nil
}

// readInput reads the file at path, local or of a Beam filesystem.
func (f *readFn) readInput(ctx context.Context, path string) (*keyedProfile, error) {
	local, done, err := localCopy(ctx, path)
	if err != nil {
		return nil, err
	}
	defer done()
	return f.read(ctx, local)
}

// keyedProfile is an input's profile, serialized, with its key and what
// its samples went to.
type keyedProfile struct {
	key     key
	data    []byte
	samples driver.SampleCounts
}

// read tells what the file at path holds by its first bytes and reads it.
func (f *readFn) read(ctx context.Context, path string) (*keyedProfile, error) {
	head, err := profformat.ReadHead(path)
	if err != nil {
		return nil, err
	}
	switch format := profformat.Sniff(head); {
	case strings.HasPrefix(string(head), "PERFILE2"):
		return f.recording(ctx, driver.Options{PerfData: path})
	case contprof.IsProfile(head):
		return f.recording(ctx, driver.Options{Profiles: []string{path}, SampleType: f.SampleType})
	case format.IsRaw(), format == profformat.Indexed:
		return instrProfile(path, format)
	case format == profformat.AddressStacks:
		return stackAddressProfile(path)
	case format == profformat.UnsymbolizedLBR:
		return f.unsymbolized(path, kindLBR)
	case format == profformat.UnsymbolizedCS:
		return f.unsymbolized(path, kindCS)
	case format != profformat.Unknown:
		return nil, fmt.Errorf("%s: profgen-fleet does not merge this kind of profile (%s)", path, format)
	}
	return f.recording(ctx, driver.Options{PerfScript: path})
}

// recording converts a perf.data or perf script recording to its address
// profile.
func (f *readFn) recording(ctx context.Context, opts driver.Options) (*keyedProfile, error) {
	opts.Quiet, opts.Jobs = true, 1 // the pipeline reads many inputs side by side
	opts.BinaryCache = f.cache
	if len(f.Binaries) == 1 {
		opts.Binaries = f.Binaries
	} else {
		opts.Finder = f.finder
	}
	opens := f.cache.Opens()
	p, err := driver.ToAddressProfile(ctx, opts)
	countOpens(ctx, f.cache.Opens()-opens)
	if err != nil {
		return nil, err
	}
	return &keyedProfile{key: newKey(addressKind(p.Data), p.BuildIDs), data: p.Data, samples: p.Samples}, nil
}

// addressKind is the kind of an address profile, by its first bytes.
func addressKind(data []byte) string {
	switch profformat.Sniff(data[:min(len(data), profformat.HeadSize)]) {
	case profformat.AddressStacks:
		return kindStacks
	case profformat.UnsymbolizedCS:
		return kindCS
	}
	return kindLBR
}

// stackAddressProfile is an address profile of call stacks, keyed by the
// binaries it lists.
func stackAddressProfile(path string) (*keyedProfile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := addrprof.Read(strings.NewReader(string(data)), path)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(p.Binaries))
	for i, b := range p.Binaries {
		ids[i] = b.BuildID
	}
	return &keyedProfile{key: newKey(kindStacks, ids), data: data, samples: driver.AddressProfileCounts(p)}, nil
}

// unsymbolized is an unsymbolized profile in llvm-profgen's format, which
// names no binary: keyed by the one --binary.
func (f *readFn) unsymbolized(path, kind string) (*keyedProfile, error) {
	if len(f.Binaries) != 1 {
		return nil, fmt.Errorf("%s: an unsymbolized profile (llvm-profgen's format) names no binary: give one --binary", path)
	}
	id, err := binary.ReadBuildID(f.Binaries[0])
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &keyedProfile{key: newKey(kind, []string{hex.EncodeToString(id)}), data: data}, nil
}

// instrProfile is a raw or indexed instrumentation profile, read whole
// (so that a damaged one fails here, naming itself), keyed by its binary
// ids.
func instrProfile(path string, format profformat.Format) (*keyedProfile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: %w", path, profformat.ErrEmpty)
	}
	ids, err := binaryIDs(path, data, format)
	if err != nil {
		return nil, err
	}
	hexIDs := make([]string, len(ids))
	for i, id := range ids {
		hexIDs[i] = hex.EncodeToString(id)
	}
	if len(hexIDs) == 0 {
		hexIDs = []string{""}
	}
	return &keyedProfile{key: newKey(kindInstr, hexIDs), data: data}, nil
}

// binaryIDs reads the instrumentation profile data and returns its binary
// ids.
func binaryIDs(path string, data []byte, format profformat.Format) ([][]byte, error) {
	ignore := func(*instrprof.Record, uint64, int64) error { return nil }
	if format == profformat.Indexed {
		info, err := indexed.Read(path, data, func(*instrprof.Record, int64) error { return nil })
		return info.BinaryIDs, err
	}
	var r raw.Reader
	info, err := r.Read(path, data, ignore)
	if errors.Is(err, raw.ErrNeedBinary) {
		err = fmt.Errorf("%w: correlated raws (-profile-correlate) are not merged by profgen-fleet", err)
	}
	return info.BinaryIDs, err
}

// namingInput is err, naming the input at path if it does not yet.
func namingInput(path string, err error) error {
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("input %s: %w", path, err)
}
