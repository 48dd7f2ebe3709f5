package driver

import (
	"fmt"
	"io"

	"github.com/profgen/profgen/internal/fpskid"
	"github.com/profgen/profgen/internal/generate"
)

// callCounts are the values of --call-counts ("" is the default).
var callCounts = map[string]generate.CallCounts{
	"": generate.CallCountsEstimate, "estimate": generate.CallCountsEstimate,
	"inclusive": generate.CallCountsInclusive, "none": generate.CallCountsNone,
	"executions": generate.CallCountsExecutions,
}

// stackCounting is how --call-counts, --body-counts and
// --no-zero-unsampled-lines make counts of call stacks.
func stackCounting(p *plan) generate.StackBinary {
	return generate.StackBinary{
		CallCounts:         callCounts[p.CallCounts],
		BodyPerInstruction: p.BodyCounts == "per-instruction",
		BodyByBlocks:       p.BodyCounts == "blocks",
		BodyBlockMax:       p.BodyCounts == "block-max" || p.BodyCounts == "",
		ZeroUnsampled:      !p.NoZeroUnsampledLines,
	}
}

// repairStacks gives back the frames perf's frame-pointer walk lost
// (package fpskid), unless --no-repair-skid, for symbolized outputs.
// Meanwhile the DWARF units of the stacks' frames load on another core:
// the repair reads only code, and writing the profile waits for both. When
// other outputs of the run take the stacks as perf unwound them, the
// repair waits for them to be written: it returns the repair to make
// then, nil otherwise.
func (res *result) repairStacks(p *plan, bins *binaries) (later func()) {
	if p.NoRepairSkid || !p.anyOutput((*output).symbolized) || res.stacks.Stats.Used == 0 {
		res.precheck.Close()
		return nil
	}
	repair := func() {
		res.pf.stackFrames(res.stacks)
		res.skid = fpskid.Repair(res.stacks, bins.files, res.precheck)
		res.pf.wait()
	}
	if !p.anyOutput((*output).unsymbolized) {
		repair()
		return nil
	}
	return func() {
		repair()
		res.printUnwind(p.Stderr)
	}
}

// precheckBatch is the number of new stacks handed to the checks at a time.
const precheckBatch = 256

func (res *result) printUnwind(w io.Writer) {
	u := res.skid
	if u.Repaired == 0 {
		return
	}
	fmt.Fprintf(w, "profgen: %d samples had frames missing from their call chain (frame-pointer skid, tail calls); "+
		"inferred from the code, %d of them without the call site (--no-repair-skid keeps them as recorded)\n",
		u.Repaired, u.SiteUnknown)
}
