package driver

import (
	"context"
	"fmt"

	"github.com/profgen/profgen/internal/addrprof"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/locate"
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
	Places() string // where it looks, for the message when nothing is found
}

// binaryFinder is the run's finder: Options.Finder, or --binary-dir (else
// perf's build-id cache) and the debuginfod servers.
func (p *plan) binaryFinder() BinaryFinder {
	if p.finder != nil {
		return p.finder
	}
	return locate.FromEnv(p.BinaryDirs)
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

// open returns the binary, opening it on first use; a nil cache opens it
// every time.
func (c *BinaryCache) open(k binaryKey) (*binary.File, error) {
	if c == nil {
		return binary.Open(k.file, binary.Options{DebugPath: k.debug, Name: k.name})
	}
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
	// Profiles is what the frames of --profile files went to (nil for
	// other inputs).
	Profiles *ProfileCounts
}

// OutputFile is a file a run wrote.
type OutputFile struct {
	Format   string   // the --format value (or the address profile's)
	Path     string   // "-": standard output
	BuildIDs []string // the binaries it is the profile of, sorted ("" for one without a build id)
	// Part tells apart the files of a format that writes several per
	// binary: Propeller's cc_profile.txt and ld_profile.txt; "" for others.
	Part string
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

// SampleCounts is what a recording's samples went to: Used, or dropped by
// the reason the summary gives.
type SampleCounts struct {
	Samples, Used uint64
	Dropped       map[string]uint64 // by reason; non-zero counts only
}

// sampleCounts are the scan's samples on the path the profile was made
// of (result.path), with the summary's reasons for those dropped
// (dropReason.key).
func (res *result) sampleCounts() SampleCounts {
	var c SampleCounts
	var drops []dropReason
	switch kind, _ := res.path(); kind {
	case kindCS:
		h := res.hybrid.sum
		drops = append(hybridDrops(h, ""), dropReason{n: h.NoStack, key: "no call stack"})
		c.Samples = h.Samples + h.NoStack
		c.Used = c.Samples - droppedSum(drops)
	case kindLBR:
		for _, l := range res.lbr { // one address profile per binary: ToAddressProfile takes one
			c.Samples, c.Used = c.Samples+l.Samples, c.Used+l.used()
			drops = append(drops, lbrDrops(l, "")...)
		}
	default:
		c = stackCounts(res.stacks.Stats)
		if res.profiles != nil {
			c.Samples += res.profiles.NoFrame
			drops = append(drops, res.profiles.drops()...)
		}
	}
	return c.add(append(drops, dropReason{n: res.events.dropped, key: "other events"})...)
}

// AddressProfileCounts are the samples of an address profile of call
// stacks (profgen --skip-symbolization), with the drops it stores: what
// the recordings it merges went to.
func AddressProfileCounts(p *addrprof.Profile) SampleCounts {
	return stackCounts(p.Counts.Stats)
}

// stackCounts are the counts of call-stack samples.
func stackCounts(st aggregate.StackStats) SampleCounts {
	c := SampleCounts{Samples: st.Samples, Used: st.Used}
	return c.add(stackDrops(st, "")...)
}

// add counts the drops of ds, the non-zero ones.
func (c SampleCounts) add(ds ...dropReason) SampleCounts {
	if c.Dropped == nil {
		c.Dropped = map[string]uint64{}
	}
	for _, d := range ds {
		if d.n > 0 {
			c.Dropped[d.key] += d.n
		}
	}
	return c
}
