package profmerge

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/memprof"
	"github.com/profgen/profgen/internal/instrprof/merge"
	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/profshow"
)

// MemProfOptions are merge's MemProf flags.
type MemProfOptions struct {
	ProfiledBinary string // --profiled-binary: the binary raw MemProf profiles come from
	memprof.WriteOptions
	// RandomHotness (--memprof-random-hotness) makes allocation sites cold
	// or not at random, from RandomHotnessSeed (0: the time).
	RandomHotness     bool
	RandomHotnessSeed uint32
}

// hotnessSeed says and returns the seed of --memprof-random-hotness, as
// llvm-profdata's writer does (on stderr, the time when no seed is given).
func (o *MemProfOptions) hotnessSeed(stderr io.Writer) uint32 {
	seed := o.RandomHotnessSeed
	if seed == 0 {
		seed = uint32(time.Now().Unix())
	}
	fmt.Fprintf(stderr, "random hotness seed = %d\n", seed)
	return seed
}

// splitMemProf takes the raw MemProf profiles out of inputs.
func splitMemProf(inputs []merge.Input) (instr, mem []merge.Input, err error) {
	for _, in := range inputs {
		f, err := profformat.SniffFile(in.Path)
		if err != nil {
			return nil, nil, err
		}
		if f == profformat.MemProfRaw || f == profformat.MemProfYAML {
			mem = append(mem, in)
		} else {
			instr = append(instr, in)
		}
	}
	return instr, mem, nil
}

// readMemProf reads the MemProf inputs, raw ones symbolized. Like llvm-profdata-22,
// whose writer takes the MemProf data of the first input and then (its
// addMemProfData returning early) none of another's, the first input's
// profile is the output's; the others are read and checked only. A YAML
// profile without records is skipped, as llvm-profdata-22 skips it ("The
// profile is empty").
func readMemProf(stderr io.Writer, o *Options, mem []merge.Input) (*memprof.Data, []merge.Skip, error) {
	var first *memprof.Data
	var skipped []merge.Skip
	for _, in := range mem {
		b, err := os.ReadFile(in.Path)
		if err != nil {
			return nil, nil, err
		}
		d, err := readMemProfInput(in.Path, b, o.MemProf.ProfiledBinary)
		switch {
		case err != nil:
			return nil, nil, err
		case !memprof.IsRaw(b) && len(d.Records) == 0:
			skipped = append(skipped, merge.Skip{Path: in.Path, Reason: "the MemProf profile is empty", Kind: merge.SkipEmpty})
		case first == nil:
			first = d
		default:
			fmt.Fprintf(stderr, "profgen merge: warning: %s: MemProf data of a second raw profile is not merged (as llvm-profdata-22)\n", in.Path)
		}
	}
	return first, skipped, nil
}

// readMemProfInput reads a raw MemProf profile (symbolized) or a YAML one.
func readMemProfInput(path string, b []byte, binPath string) (*memprof.Data, error) {
	if !memprof.IsRaw(b) {
		d, err := memprof.ReadYAML(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return d, nil
	}
	p, err := profshow.ReadMemProfRaw(path, b, binPath)
	if err != nil {
		return nil, err
	}
	return p.Data, nil
}

// addMemProf puts the MemProf data into the merged profile, flagged so,
// and the MemProf format into its write options (an indexed input of the
// MemProf kind makes an empty section of that format).
func addMemProf(o *Options, p *instrprof.Profile, d *memprof.Data, seed uint32) {
	p.MemProfWrite = o.MemProf.WriteOptions
	if d == nil {
		return
	}
	if o.MemProf.RandomHotness {
		memprof.RandomizeHotness(d, seed)
	}
	p.MemProf = d
	p.Kind |= instrprof.KindMemProf
}
