package driver

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/sampleprof"
)

// The sources of the output step (outputs.go): each returns one kind of
// profile, which driver.Run hands to writeProfile.

// recordingProfile is the recording's profile: the scan (scan.go), the
// repair of its call stacks and the summary of what was used and dropped,
// which the profile carries (SampleCounts).
func recordingProfile(ctx context.Context, p *plan, bins *binaries, timer *phaseTimer) (*profileInput, error) {
	res, err := scanInput(ctx, p, bins)
	if err != nil {
		return nil, err
	}
	if res.stacks != nil {
		timer.phase("Repair call stacks")
	}
	repairLater := res.repairStacks(p, bins)
	timer.phase("Generate and write profile")
	res.print(p, bins)
	in, err := res.profile(p, bins)
	if in != nil {
		in.repair = repairLater
		in.samples = res.sampleCounts()
		in.profiles = res.profiles
	}
	return in, err
}

// profile is what the recording held: branch stacks give the LBR profile
// (with --leading-ip-only, of every sample's IP once one sample has a
// branch stack, as llvm-profgen 19), hybrid samples the CS one, call
// stacks the call-stack one. Branch stacks none of which lands in the
// binaries give the empty LBR profile and a warning, as llvm-profgen;
// nothing else usable is an error.
func (res *result) profile(p *plan, bins *binaries) (*profileInput, error) {
	kind, ok := res.path()
	switch {
	case !ok:
		return nil, res.noSamplesError(p, bins)
	case kind == kindCS:
		return csProfile(p, res.hybrid)
	case kind == kindLBR && res.lbrUsed() == 0:
		fmt.Fprintf(p.Stderr, "profgen: warning: %s: the profile is empty: %s\n", p.src.name(), res.noSamplesWhy(p, bins))
		return res.lbrProfile(), nil
	case kind == kindLBR:
		return res.lbrProfile(), nil
	}
	return &profileInput{kind: kindStacks, stacks: res.stacks}, nil
}

// path is the scan path whose samples make the profile: kindCS for
// hybrid samples (unwound into contexts), kindLBR for branch stacks (even
// when none is in the binaries: the empty profile), kindStacks for call
// stacks. It is decided here once, for the profile and for what the run
// reports (sampleCounts); ok is false when no path has a usable sample.
func (res *result) path() (kind profileKind, ok bool) {
	branchStacks := len(res.lbr) > 0 && res.lbr[0].Samples > res.lbr[0].IPOnly
	switch {
	case res.hybrid.cs() && res.hybrid.sum.Samples > 0:
		return kindCS, true
	case res.lbrUsed() > 0 && branchStacks:
		return kindLBR, true
	case res.stacks.Stats.Used > 0:
		return kindStacks, true
	case branchStacks:
		return kindLBR, true
	}
	return kindStacks, false
}

// lbrProfile is the LBR profile of the branch stacks, per binary.
func (res *result) lbrProfile() *profileInput {
	in := &profileInput{kind: kindLBR, lbr: make([]lbrCounts, len(res.lbr))}
	for i, s := range res.lbr {
		in.lbr[i] = lbrCounts{counters: s.Counters, traces: s.Traces, usedLLVM: s.Agg.Samples}
		if s.Traces != nil {
			in.lbr[i].usedTraces = s.Traces.samples
		}
	}
	// llvm-profgen 22 puts the vtable loads in the counters of
	// branch stacks alone, not in those of hybrid samples.
	in.noDataAccess = !res.hybrid.lbrOnly()
	return in
}

// unsymbolizedProfile is the profile of an unsymbolized file
// (--unsymbolized-profile): llvm-profgen's, of LBR ranges flat or in
// contexts, or the address profile of call stacks.
func unsymbolizedProfile(p *plan, bins *binaries) (*profileInput, error) {
	in, name, closeIn, err := openUnsymbolized(p)
	if err != nil {
		return nil, err
	}
	defer closeIn()
	in, stacks, err := peekAddressProfile(in)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if stacks {
		return addressProfile(p, bins, in, name)
	}
	if len(bins.files) > 1 {
		return nil, usagef("%s is an unsymbolized profile of LBR input, of one --binary; %d were given", name, len(bins.files))
	}
	// Refused before the file is read: its kinds (LBR, CS, CS probe) are
	// refused alike.
	if err := p.refusedBeforeReading(kindLBR); err != nil {
		return nil, err
	}
	ctxs, cs, err := rawprof.ReadCS(in, name, p.LLVM.unsymbolizedBase(bins.primary()))
	if err != nil {
		return nil, err
	}
	return unsymbolizedInput(p, bins, name, ctxs, cs)
}

// unsymbolizedInput is the profile of llvm-profgen's unsymbolized
// contexts: LBR counters when they have no context, else the contexts as
// frames, or as call-site addresses for a binary with pseudo probes.
// Contexts take no vtable counts, as in llvm-profgen 22.
func unsymbolizedInput(p *plan, bins *binaries, name string, ctxs []rawprof.Context, cs bool) (*profileInput, error) {
	switch {
	case cs && p.DataAccessTrace != "":
		return nil, errDataAccessMode
	case cs && usePseudoProbes(p, bins):
		return unsymbolizedAddressContexts(p, bins, name, ctxs)
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
	return &profileInput{kind: kindLBR, lbr: []lbrCounts{{counters: c}}}, nil
}

func openUnsymbolized(p *plan) (io.Reader, string, func(), error) {
	if p.src.path == "-" {
		return p.Stdin, "<stdin>", func() {}, nil
	}
	f, err := os.Open(p.src.path)
	if err != nil {
		return nil, "", nil, err
	}
	return f, p.src.path, func() { f.Close() }, nil
}

// sampleProfile is an LLVM sample profile (--llvm-sample-profile), to be
// written again as llvm-profgen does.
func sampleProfile(p *plan) (*profileInput, error) {
	prof, err := sampleprof.ReadFile(p.src.path)
	if err != nil {
		return nil, err
	}
	return &profileInput{kind: kindSampleProfile, profile: prof}, nil
}
