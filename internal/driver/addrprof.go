package driver

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"

	"github.com/profgen/profgen/internal/addrprof"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/profformat"
)

// The address profile of call stacks (package addrprof): written by
// --skip-symbolization from call-stack input, before stack repair and
// symbolization, and read back by --unsymbolized-profile, after which the
// conversion goes on as from the recording.

// stackAddressProfile is the address profile of call stacks: the stacks
// counted, unrepaired, with the binaries' build ids, in one file.
func stackAddressProfile(o *output, bins *binaries, in *profileInput) ([]profileFile, error) {
	p := &addrprof.Profile{Counts: in.stacks}
	for _, f := range bins.files {
		p.Binaries = append(p.Binaries, addrprof.Binary{BuildID: f.BuildIDHex(), Path: f.Path()})
	}
	return oneFile(func(w io.Writer) error { return addrprof.Write(w, p) }), nil
}

// peekAddressProfile tells whether in starts as an address profile of
// call stacks; the reader returned reads in from its start.
func peekAddressProfile(in io.Reader) (io.Reader, bool, error) {
	br := bufio.NewReaderSize(in, 1<<16)
	head, err := br.Peek(len(profformat.AddressHeader))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, false, err
	}
	return br, string(head) == profformat.AddressHeader, nil
}

// addressProfile reads an address profile of call stacks as the recording
// it was made of: stack repair and the summary, then its profile (or the
// address profile again, --skip-symbolization).
func addressProfile(run *plan, bins *binaries, in io.Reader, name string) (*profileInput, error) {
	p, err := addrprof.Read(in, name)
	if err != nil {
		return nil, err
	}
	counts, err := bindBinaries(p, bins, name)
	if err != nil {
		return nil, err
	}
	if counts.Stats.Used == 0 {
		return nil, fmt.Errorf("%s: %w: %d call-stack samples, none in %s", name, ErrNoSamples, counts.Stats.Samples, binaryNames(bins))
	}
	res := &result{stacks: counts, pf: newPrefetcher(run, bins)}
	res.repairStacks(run, bins)
	res.printStacks(run.Stderr, bins)
	return &profileInput{kind: kindStacks, stacks: res.stacks, samples: stackCounts(counts.Stats)}, nil
}

// bindBinaries returns p's counts with its binaries numbered as bins: by
// build id, or by base name where either has none. A binary of p that is
// not among bins is an error naming it.
func bindBinaries(p *addrprof.Profile, bins *binaries, name string) (*aggregate.StackCounts, error) {
	ids := make([]int, len(p.Binaries))
	for i, b := range p.Binaries {
		j := matchBinary(b, bins)
		if j < 0 {
			return nil, fmt.Errorf("%s: samples of %s (build id %s), which no --binary is", name, b.Path, buildIDOrNone(b.BuildID))
		}
		ids[i] = j
	}
	c := *p.Counts
	c.Objects = make([]aggregate.Object, len(p.Counts.Objects))
	for i, o := range p.Counts.Objects {
		if o.Binary >= 0 {
			o.Binary = ids[o.Binary]
		}
		c.Objects[i] = o
	}
	c.Stats.PerBinary = make([]uint64, len(bins.files))
	for i, n := range p.Counts.Stats.PerBinary {
		c.Stats.PerBinary[ids[i]] += n
	}
	return &c, nil
}

// matchBinary returns the index of the binary of bins that b is, or -1.
func matchBinary(b addrprof.Binary, bins *binaries) int {
	for j, f := range bins.files {
		if id := f.BuildIDHex(); id != "" && b.BuildID != "" {
			if id == b.BuildID {
				return j
			}
			continue
		}
		if filepath.Base(f.Path()) == filepath.Base(b.Path) {
			return j
		}
	}
	return -1
}

func buildIDOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
