package driver

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// What the --profile files' frames and samples went to, beside the
// call-stack samples' line (printStacks): one line per kind of frame left
// out, and why nothing was usable when nothing was.

// print writes the summary lines of the profiles read.
func (c *ProfileCounts) print(w io.Writer) {
	fmt.Fprintf(w, "profgen: %d profiles read\n", c.Files)
	for _, l := range c.frameLines() {
		if l.n > 0 {
			fmt.Fprintf(w, "profgen: %d %s\n", l.n, l.why)
		}
	}
	if len(c.Interpreted) > 0 {
		fmt.Fprintf(w, "profgen: interpreter and JIT frames left out (no ELF file behind them): %s\n", c.interpretedList())
	}
	if c.NoFrame > 0 {
		fmt.Fprintf(w, "profgen: %d samples left with no native frame, dropped\n", c.NoFrame)
	}
	if c.OtherTypes > 0 {
		fmt.Fprintf(w, "profgen: %d OTLP profiles of other sample types skipped (--sample-type)\n", c.OtherTypes)
	}
}

// frameLines are the counts of frames kept apart or left out, with what
// the summary says of them.
func (c *ProfileCounts) frameLines() []dropReason {
	return []dropReason{
		{n: c.KernelFrames, why: "kernel frames (folded into the user frame under them for Go's pprof, left out of LLVM profiles)"},
		{n: c.NoMapping, why: "frames in no mapping, kept by their address as perf's [unknown] frames"},
		{n: c.NoAddress, why: "frames with no address (names only) left out, or in no mapping kept as perf's [unknown] at 0"},
		{n: c.Outside, why: "frames outside their mapping's range left out"},
		{n: c.OtherBuild, why: "frames of mappings whose build id differs from the binary of their name kept apart (another build)"},
		{n: c.Unplaced, why: "frames at ELF virtual addresses outside the binaries' code left out"},
	}
}

// interpretedList is "cpython 12, jvm 3": the interpreted frames by type.
func (c *ProfileCounts) interpretedList() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c.Interpreted)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, c.Interpreted[k]))
	}
	return strings.Join(parts, ", ")
}

// drops are the samples of the profiles that reached no aggregation.
func (c *ProfileCounts) drops() []dropReason {
	return []dropReason{{n: c.NoFrame, key: "no native frame", why: "with no native frame"}}
}

// noSamplesWhy says why the profiles gave no sample with a native frame,
// "" when some had one.
func (c *ProfileCounts) noSamplesWhy(aggregated uint64) string {
	if aggregated > 0 {
		return ""
	}
	var parts []string
	for _, l := range c.frameLines() {
		if l.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", l.n, l.why))
		}
	}
	if len(c.Interpreted) > 0 {
		parts = append(parts, "interpreter and JIT frames: "+c.interpretedList())
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%d profiles with no sample", c.Files)
	}
	return fmt.Sprintf("%d samples, none with a native frame to place: %s", c.NoFrame, strings.Join(parts, "; "))
}
