package driver

import (
	"bytes"
	"context"
	"fmt"
)

// The entry point of the fleet pipeline (the separate module fleet/, on
// Apache Beam): each recording becomes its address profile in memory,
// keyed by the build ids of the binaries it counts; the address profiles
// merge by build id (addrprof.MergeInputs) and each merged one goes
// through Run as --unsymbolized-profile. This is --skip-symbolization
// without the file.

// AddressProfile is a recording's address profile, as --skip-symbolization
// writes it, with the build ids of the binaries it counts and what its
// samples went to.
type AddressProfile struct {
	Data []byte
	// BuildIDs are the binaries the profile counts, sorted, "" for one
	// without a build id: the primary binary for LBR and CS profiles
	// (llvm-profgen's unsymbolized format names none), every binary of a
	// call-stack profile.
	BuildIDs []string
	Samples  SampleCounts
}

// ToAddressProfile converts the recording of opts (PerfData or PerfScript,
// with Binaries or found by build id) to its address profile in memory, as
// Run with SkipSymbolization would write it.
func ToAddressProfile(ctx context.Context, opts Options) (*AddressProfile, error) {
	opts.SkipSymbolization, opts.Output = true, "-"
	p, err := newPlanOf(opts)
	if err != nil {
		return nil, err
	}
	bins, err := openBinaries(ctx, p)
	if err != nil {
		return nil, err
	}
	defer bins.Close()
	in, err := recordingProfile(ctx, p, bins, newPhaseTimer(p))
	if err != nil {
		return nil, err
	}
	data, ids, err := buildOneFile(p.first(), bins, in)
	if err != nil {
		return nil, err
	}
	return &AddressProfile{Data: data, BuildIDs: ids, Samples: in.samples}, nil
}

// buildOneFile builds the one file of the address profile's row, and the
// build ids of the binaries it counts.
func buildOneFile(o *output, bins *binaries, in *profileInput) ([]byte, []string, error) {
	row, err := outputFor(in.kind, o)
	if err != nil {
		return nil, nil, err
	}
	files, err := row.build(o, bins, in)
	if err != nil {
		return nil, nil, err
	}
	if len(files) != 1 {
		return nil, nil, fmt.Errorf("%s: %d address profiles, want one", o.src.name(), len(files))
	}
	var buf bytes.Buffer
	if err := files[0].write(&buf); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), row.buildIDs(bins, files[0]), nil
}

// droppedSum is the samples ds drop.
func droppedSum(ds []dropReason) uint64 {
	var n uint64
	for _, d := range ds {
		n += d.n
	}
	return n
}
