package driver

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
)

// print writes the summary of the run on stderr: samples read, used and
// dropped by reason, per binary; one line per fact worth knowing.
func (res *result) print(p *plan, bins *binaries) {
	w := p.Stderr
	res.hybrid.print(w, filepath.Base(bins.primary().Path()))
	if res.hybrid.cs() {
		res.warnNoMmap(w, bins, 0)
	}
	if res.hybrid.mode == modeCS || res.hybrid.mode == modeFlatHybrid {
		warnShare(w, res.hybrid.sum.LeafExternal, uint64(res.scan.Units), "of samples have leaf external frame in call stack.")
	}
	if res.hybrid.mode == modeFlatHybrid {
		res.hybrid.flat.warn(w, p.LLVM.ShowDetailedWarning)
	}
	if res.lbr[0].Samples > 0 && !res.hybrid.cs() {
		for i := range bins.files {
			res.printLBR(w, bins, i)
			res.printLLVMWarnings(p, bins, i)
		}
		res.printLBRInput(w)
	}
	if res.profiles != nil {
		res.profiles.print(w)
	}
	if res.stacks.Stats.Samples > 0 {
		res.printStacks(w, bins)
	}
	if res.events.dropped > 0 {
		fmt.Fprintf(w, "profgen: %d samples of events other than %s dropped (--perf-event)\n", res.events.dropped, res.events.want)
	}
	if res.scan.SkippedLines > 0 || res.scan.SkippedRecords > 0 {
		fmt.Fprintf(w, "profgen: warning: skipped %d unrecognized lines and %d other PERF_RECORD events\n", res.scan.SkippedLines, res.scan.SkippedRecords)
	}
}

// dropReason is a count of samples dropped for one reason: key names the
// reason in the fleet's counters (SampleCounts), why on the summary's
// line.
type dropReason struct {
	n        uint64
	key, why string
}

// dropList is "; dropped: N why, ..." of the non-zero counts, or "".
func dropList(ds []dropReason) string {
	var parts []string
	for _, d := range ds {
		if d.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", d.n, d.why))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "; dropped: " + strings.Join(parts, ", ")
}

// lbrDrops are the LBR samples binary name's path dropped.
func lbrDrops(s *lbrSummary, name string) []dropReason {
	ds := []dropReason{
		{s.NoMapping, "no mapping", "from processes with no mapping of " + name},
		{s.Filtered, "filtered", "from processes not selected by --pid"},
	}
	if s.Traces == nil {
		ds = append(ds, dropReason{s.Agg.NoBranches, "no branch in the binary", "with every branch outside " + name})
	}
	return ds
}

// stackDrops are the call-stack samples dropped; names are the binaries'.
func stackDrops(s aggregate.StackStats, names string) []dropReason {
	return []dropReason{
		{s.NoBinary, "no frame in the binaries", "with no frame in " + names},
		{s.NotFound, "binary not found", "with frames only in binaries not found by build id"},
		{s.NoMapping, "no mapping", "whose address is in no known mapping"},
		{s.Filtered, "filtered", "from processes not selected by --pid"},
	}
}

// hybridDrops are the hybrid samples dropped (those without a call stack,
// not counted as hybrid, aside).
func hybridDrops(s hybridSummary, name string) []dropReason {
	return []dropReason{
		{s.NoMapping, "no mapping", "from processes with no mapping of " + name},
		{s.Filtered, "filtered", "from processes not selected by --pid"},
		{s.PrologEpilog + s.Unwind.PrologEpilog, "prolog or epilog", "with the stack's leaf in a prolog or epilog"},
		{s.Unwind.NoBranches, "no branch in the binary", "with every branch outside " + name},
	}
}

// printLBR says what binary i's LBR path used and dropped; with several
// binaries, each line names the binary.
func (res *result) printLBR(w io.Writer, bins *binaries, i int) {
	s, name, prefix := res.lbr[i], filepath.Base(bins.files[i].Path()), binaryPrefix(bins, bins.files[i])
	fmt.Fprintf(w, "profgen: %s%d samples with branch stacks%s, %d used%s\n", prefix, s.Samples, ipOnlyNote(s.IPOnly), s.used(), dropList(lbrDrops(s, name)))
	if s.Traces != nil {
		fmt.Fprintf(w, "profgen: %s%d branches in %d distinct BOLT traces\n", prefix, s.Traces.entries, len(s.Traces.traces))
	}
	if s.Traces != nil && s.Agg.Samples > 0 { // the LLVM counters beside the traces (--also)
		fmt.Fprintf(w, "profgen: %sLLVM counters: %d samples used, %d with every branch outside %s\n", prefix, s.Agg.Samples, s.Agg.NoBranches, name)
	}
	if s.Traces == nil || s.Agg.Samples > 0 {
		fmt.Fprintf(w, "profgen: %s%d branches used (%d with an external end), %d external-to-external dropped, %d fall-through ranges dropped as invalid\n",
			prefix, s.Agg.Entries, s.Agg.ExternalEnds, s.Agg.DroppedExtExt, s.Agg.InvalidRanges)
	}
	if s.used() == 0 && len(bins.files) > 1 {
		fmt.Fprintf(w, "profgen: warning: %s: no branch stack was counted in it: no profile of it is written\n", name)
	}
	res.printTableWarnings(w, name, res.table[i], s)
}

// binaryPrefix names f at the start of a line about it, when there are
// several binaries.
func binaryPrefix(bins *binaries, f Binary) string {
	if len(bins.files) == 1 {
		return ""
	}
	return filepath.Base(f.Path()) + ": "
}

// printLBRInput says what of the input the LBR paths left out, for every
// binary alike.
func (res *result) printLBRInput(w io.Writer) {
	s := res.lbr[0]
	if n := res.stacks.Stats.Samples; n > 0 {
		fmt.Fprintf(w, "profgen: warning: %d samples without a branch stack are not in the LBR profile\n", n)
	}
	if s.WithCallChain > 0 {
		fmt.Fprintf(w, "profgen: warning: %d LBR samples carry a call chain; only their branch stacks are used (llvm-profgen --ignore-stack-samples)\n", s.WithCallChain)
	}
	if s.BadBranchLines > 0 {
		fmt.Fprintf(w, "profgen: warning: %d samples had a malformed branch entry; their stack was cut there\n", s.BadBranchLines)
	}
}

// warnNoMmap prints llvm-profgen's warning about samples placed at binary
// i's preferred address, no mapping of it having been seen.
func (res *result) warnNoMmap(w io.Writer, bins *binaries, i int) {
	if f := bins.files[i]; res.table[i].NoMmapDefaulted {
		fmt.Fprintf(w, "warning: No relevant mmap event is matched for %s, will use preferred address (%#x) as the base loading address!\n",
			filepath.Base(f.Path()), f.PreferredBase())
	}
}

// printLLVMWarnings prints llvm-profgen's own warnings about LBR input,
// those of its ranges for binary i. The missing mmap is warned of, in
// branch-stack input, once a sample has a branch in the binary; no range
// at all is warned of in every mode. The range shares need the binary's
// functions: they are left out when the unsymbolized profile is written
// first, or Propeller's profiles alone (which read no function's lines),
// unless asked for in detail.
func (res *result) printLLVMWarnings(p *plan, bins *binaries, i int) {
	w, s := p.Stderr, res.lbr[i]
	if s.Agg.Samples > 0 || !res.hybrid.lbrOnly() {
		res.warnNoMmap(w, bins, i)
	}
	if i == 0 {
		printBadLines(w, s)
		if res.hybrid.lbrOnly() {
			printSkippedLines(w, res.scan)
		}
	}
	if s.Agg.Pairs == 0 {
		fmt.Fprintln(w, "warning: No samples in perf script!")
		return
	}
	onlyPropeller := !p.anyOutput(func(o *output) bool { return o.format != formatPropeller })
	if (p.first().format == formatAddress || onlyPropeller) && !p.LLVM.ShowDetailedWarning {
		return
	}
	one := bins.only(i)
	funcs, ok := primaryFuncAt(one)
	if !ok {
		return // reported when the profile is written
	}
	checkRanges(s.Counters, s.Agg.Pairs, one.primary(), funcs, p.LLVM.LeadingIPOnly).print(w, p.LLVM.ShowDetailedWarning)
}

func (res *result) printTableWarnings(w io.Writer, name string, t addrspace.Stats, s *lbrSummary) {
	if t.Mappings == 0 && s.NoMapping > 0 {
		fmt.Fprintf(w, "profgen: warning: no mmap of %s in the input: print it with perf script --show-mmap-events (the binary is matched by its base name)\n", name)
	}
	if t.Reloads > 0 && t.NoPIDSamples > 0 {
		fmt.Fprintf(w, "profgen: warning: %s was loaded at %d different bases by different processes but samples carry no PID; the last base was used (print the pid field: perf script -F pid,ip,brstack --show-mmap-events --show-task-events)\n", name, t.Reloads+1)
	}
}

func (res *result) printStacks(w io.Writer, bins *binaries) {
	s := res.stacks.Stats
	fmt.Fprintf(w, "profgen: %d call-stack samples, %d used%s\n", s.Samples, s.Used, dropList(stackDrops(s, binaryNames(bins))))
	if len(bins.files) > 1 {
		var per []string
		for i, f := range bins.files {
			per = append(per, fmt.Sprintf("%s %d", filepath.Base(f.Path()), s.PerBinary[i]))
		}
		fmt.Fprintf(w, "profgen: leaf samples per binary: %s\n", strings.Join(per, ", "))
	}
	printNotFoundLeaves(w, s.NotFoundLeaves, bins.notFound)
	if s.Unplaced > 0 {
		fmt.Fprintf(w, "profgen: warning: %d frames of the profiled binaries fall outside their code "+
			"(a different build than the one recorded?)\n", s.Unplaced)
	}
	res.printUnwind(w)
}

// printNotFoundLeaves says how many samples had their leaf in each binary
// not found: they are in no binary's profile.
func printNotFoundLeaves(w io.Writer, leaves []uint64, notFound []recordedBinary) {
	var per []string
	for i, n := range leaves {
		if n > 0 {
			per = append(per, fmt.Sprintf("%s %d", filepath.Base(notFound[i].path), n))
		}
	}
	if len(per) > 0 {
		fmt.Fprintf(w, "profgen: leaf samples in binaries not found: %s\n", strings.Join(per, ", "))
	}
}

func binaryNames(bins *binaries) string {
	var names []string
	for _, f := range bins.files {
		names = append(names, filepath.Base(f.Path()))
	}
	return strings.Join(names, ", ")
}

// ipOnlyNote says how many samples without a branch stack were counted by
// their IP (--leading-ip-only).
func ipOnlyNote(n uint64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of them without one, counted by their IP: --leading-ip-only)", n)
}

// noSamplesError says why nothing could be used, in one line.
func (res *result) noSamplesError(p *plan, bins *binaries) error {
	return fmt.Errorf("%s: %w: %s", p.src.name(), ErrNoSamples, res.noSamplesWhy(p, bins))
}

// noSamplesWhy says why no sample could be used.
func (res *result) noSamplesWhy(p *plan, bins *binaries) string {
	lbr, st := res.lbr[0], res.stacks.Stats
	total := lbr.Samples + st.Samples + res.events.dropped
	var why string
	if res.profiles != nil {
		if why := res.profiles.noSamplesWhy(st.Samples); why != "" {
			return why
		}
	}
	switch {
	case total == 0 && res.scan.SkippedLines > 0:
		why = fmt.Sprintf("no sample in %d lines of perf script output", res.scan.Lines)
	case total == 0:
		why = "no samples in the input"
	case lbr.IPOnly == total:
		why = fmt.Sprintf("%d samples, none with a branch stack (--leading-ip-only takes the IPs of LBR input)", total)
	case res.events.dropped == total:
		why = fmt.Sprintf("no sample of event %s", p.PerfEvent)
	case lbr.Filtered+st.Filtered == total:
		why = fmt.Sprintf("%d samples, all from processes not selected by --pid", total)
	case st.NotFound > 0 && st.NotFound+st.NoBinary+st.Filtered+st.NoMapping == total:
		why = fmt.Sprintf("%d samples, none in %s (%d in binaries not found by build id)", total, binaryNames(bins), st.NotFound)
	case res.mappings() == 0 && res.profiles == nil:
		why = fmt.Sprintf("%d samples, none in a mapping of %s (a recording of another program, or perf script without --show-mmap-events)", total, binaryNames(bins))
	default:
		why = fmt.Sprintf("%d samples, none in %s", total, binaryNames(bins))
	}
	return why
}

// lbrUsed is the number of samples the LBR paths counted, summed over
// the binaries.
func (res *result) lbrUsed() uint64 {
	n := uint64(0)
	for _, s := range res.lbr {
		n += s.used()
	}
	return n
}

// mappings is the number of mappings of the binaries the input holds.
func (res *result) mappings() int {
	n := 0
	for _, t := range res.table {
		n += t.Mappings
	}
	return n
}

// primaryFuncAt returns, for the primary binary, what finds the function
// range holding an address; false when its symbolizer fails.
func primaryFuncAt(bins *binaries) (funcAt, bool) {
	sym, err := bins.symbolizer(0)
	if err != nil {
		return nil, false
	}
	return sym.FuncRangeAt, true
}
