package driver

import (
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/sampleprof"
)

// The sources of the output step (outputs.go): each hands one kind of
// profile to writeProfile.

// write hands over what the recording held: branch stacks give the LBR
// profile (with --leading-ip-only, of every sample's IP once one sample
// has a branch stack, as llvm-profgen 19), hybrid samples the CS one, call
// stacks the call-stack one; nothing usable is an error and writes
// nothing.
func write(opts Options, bins *binaries, res *result) error {
	switch {
	case res.hybrid.cs() && res.hybrid.sum.Samples > 0:
		return writeCS(opts, bins, res.hybrid)
	case res.lbr.used() > 0 && res.lbr.Samples > res.lbr.IPOnly:
		if !res.hybrid.lbrOnly() {
			// llvm-profgen 22 puts the vtable loads in the counters of
			// branch stacks alone, not in those of hybrid samples.
			opts.DataAccessTrace = ""
		}
		return writeProfile(opts, bins, &profileInput{kind: kindLBR, counters: res.lbr.Counters, traces: res.lbr.Traces})
	case res.stacks.Stats.Used > 0:
		return writeProfile(opts, bins, &profileInput{kind: kindStacks, stacks: res.stacks})
	}
	return res.noSamplesError(opts, bins)
}

// convertUnsymbolized hands over an unsymbolized profile (--unsymbolized-
// profile): llvm-profgen's, of LBR ranges flat or in contexts, or the
// address profile of call stacks.
func convertUnsymbolized(opts Options, bins *binaries) error {
	in, name, closeIn, err := openUnsymbolized(opts)
	if err != nil {
		return err
	}
	defer closeIn()
	in, stacks, err := peekAddressProfile(in)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if stacks {
		return convertAddressProfile(opts, bins, in, name)
	}
	if len(bins.files) > 1 {
		return usagef("%s is an unsymbolized profile of LBR input, of one --binary; %d were given", name, len(bins.files))
	}
	// Refused before the file is read: its kinds (LBR, CS, CS probe) are
	// refused alike.
	if _, err := outputFor(kindLBR, opts); err != nil {
		return err
	}
	ctxs, cs, err := rawprof.ReadCS(in, name, opts.LLVM.unsymbolizedBase(bins.primary()))
	if err != nil {
		return err
	}
	pin, err := unsymbolizedInput(opts, bins, name, ctxs, cs)
	if err != nil {
		return err
	}
	return writeProfile(opts, bins, pin)
}

// unsymbolizedInput is the profile of llvm-profgen's unsymbolized
// contexts: LBR counters when they have no context, else the contexts as
// frames, or as call-site addresses for a binary with pseudo probes.
func unsymbolizedInput(opts Options, bins *binaries, name string, ctxs []rawprof.Context, cs bool) (*profileInput, error) {
	switch {
	case cs && usePseudoProbes(opts, bins):
		return unsymbolizedAddressContexts(opts, bins, name, ctxs)
	case cs:
		return unsymbolizedContexts(bins, name, ctxs)
	case len(ctxs) == 0: // llvm-profgen 19 crashes
		return nil, fmt.Errorf("%s: %w: the file is empty", name, ErrNoSamples)
	}
	c := aggregate.NewCounters()
	for _, ctx := range ctxs {
		c.Add(ctx.Counters)
	}
	// No range or branch ("0\n0"): an empty profile, as llvm-profgen.
	return &profileInput{kind: kindLBR, counters: c}, nil
}

func openUnsymbolized(opts Options) (io.Reader, string, func(), error) {
	if opts.UnsymbolizedProfile == "-" {
		return opts.Stdin, "<stdin>", func() {}, nil
	}
	f, err := os.Open(opts.UnsymbolizedProfile)
	if err != nil {
		return nil, "", nil, err
	}
	return f, opts.UnsymbolizedProfile, func() { f.Close() }, nil
}

// convertSampleProfile hands over an LLVM sample profile
// (--llvm-sample-profile), to be written again as llvm-profgen does.
func convertSampleProfile(opts Options, bins *binaries) error {
	prof, err := sampleprof.ReadFile(opts.LLVMSampleProfile)
	if err != nil {
		return err
	}
	return writeProfile(opts, bins, &profileInput{kind: kindSampleProfile, profile: prof})
}
