package driver

import (
	"context"
	"fmt"

	"github.com/profgen/profgen/internal/binary"
)

// The driver as a library (Convert): what a caller hands in beside
// Options (a binary finder, a cache of opened binaries) and the typed
// result it gets back. profgen's own command and the fleet pipeline are
// two callers among others.

// BinaryFinder finds a binary, and its separate debug file, by build id
// (lower-case hex). locate.Finder is the default: --binary-dir or perf's
// build-id cache, then debuginfod.
type BinaryFinder interface {
	Executable(ctx context.Context, buildID string) (string, error)
	Debuginfo(ctx context.Context, buildID string) (string, error)
}

// BinaryCache keeps binaries open across runs, by path: a caller that
// converts many inputs of the same binaries opens each once. Not safe for
// runs on several goroutines at once.
type BinaryCache struct {
	files map[binaryKey]*binary.File
	opens int
}

// binaryKey is what a binary is opened from.
type binaryKey struct{ file, debug, name string }

// NewBinaryCache returns an empty cache.
func NewBinaryCache() *BinaryCache { return &BinaryCache{files: map[binaryKey]*binary.File{}} }

// open returns the binary, opening it on first use.
func (c *BinaryCache) open(k binaryKey) (*binary.File, error) {
	if f, ok := c.files[k]; ok {
		return f, nil
	}
	f, err := binary.Open(k.file, binary.Options{DebugPath: k.debug, Name: k.name})
	if err != nil {
		return nil, err
	}
	c.opens++
	c.files[k] = f
	return f, nil
}

// Opens is the number of binaries the cache opened.
func (c *BinaryCache) Opens() int { return c.opens }

// Close closes every binary of the cache.
func (c *BinaryCache) Close() {
	for k, f := range c.files {
		f.Close()
		delete(c.files, k)
	}
}

// Result is what a run did: the kind of profile the input gave, what its
// samples went to, the files written, and the outputs refused for the
// input's kind (Options.KeepRefused).
type Result struct {
	Kind    string // LBR, call stacks, CS, CS probe, sample profile
	Samples SampleCounts
	Files   []OutputFile
	Refused []*RefusedError
}

// OutputFile is a file a run wrote.
type OutputFile struct {
	Format   string   // the --format value (or the address profile's)
	Path     string   // "-": standard output
	BuildIDs []string // the binaries it is the profile of, sorted ("" for one without a build id)
}

// RefusedError is an output that the input cannot give: its format does
// not take the input's kind of profile.
type RefusedError struct {
	Format string // the --format value
	Err    error
}

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// Extension is the extension of format's files named by build id
// (profgen-fleet's <build id>.<ext>): one per --format value, the LLVM
// encodings apart.
func Extension(format string) (string, error) {
	for _, c := range formatColumns {
		for _, f := range c.flags {
			if f.name == format {
				return f.idExt, nil
			}
		}
	}
	return "", fmt.Errorf("no format %q", format)
}
