package driver

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Without --binary, a recording of several binaries (the program, its
// shared libraries) and an output that names one file of a format that
// writes a file per binary (-o app.prof): the run writes the profile of
// the program perf recorded, as --binary would, and says on one line
// which binary it chose and which it left out. The program is the one
// perf record's command line runs (perf.data's CMDLINE feature), else
// the first a recorded process exec'd (a COMM exec record: perf script
// --show-task-events), else the binary with the most samples (leaf
// samples, as perf report --sort dso counts them).

// namesOneFile is the first output that names one file (or standard
// output) where its format writes a file per binary; nil when every
// output can take several binaries.
func (p *plan) namesOneFile() *output {
	for _, o := range p.outputs {
		if namesPerBinary(o.format, o.path) && !namesPattern(o.path) {
			return o
		}
	}
	return nil
}

// findProgram finds the program among the recorded binaries: the first
// found of them in the order rankRecorded gives.
func findProgram(ctx context.Context, p *plan, rec recording) ([]binaryRef, []recordedBinary, error) {
	order, why := rankRecorded(rec)
	finder := p.binaryFinder()
	for i, r := range order {
		if ref, found := findOne(ctx, p, finder, r); found {
			sayChosen(p, r, why, order[i+1:])
			return []binaryRef{ref}, order[:i], nil
		}
	}
	return nil, nil, noneFound(p, finder, len(order))
}

// rankRecorded orders the binaries, the program first: the one perf
// record's command line names, or else the first exec'd; then by leaf
// samples, most first (by path among equals). why says what made the
// first one first.
func rankRecorded(rec recording) (order []recordedBinary, why string) {
	order = slices.Clone(rec.binaries)
	slices.SortStableFunc(order, func(a, b recordedBinary) int { return cmp.Compare(b.leafSamples, a.leafSamples) })
	why = "the program perf record ran"
	i := programIndex(rec.cmdline, order)
	if i < 0 {
		i, why = execIndex(rec.execs, order), "the program the recording exec'd"
	}
	if i < 0 {
		return order, fmt.Sprintf("the most samples, %d", order[0].leafSamples)
	}
	program := order[i]
	copy(order[1:i+1], order[:i])
	order[0] = program
	return order, why
}

// execIndex is the index of the binary the first of the exec'd commands
// names (the kernel's command name: the file's base name, cut to 15
// bytes); -1 when none does.
func execIndex(execs []string, bins []recordedBinary) int {
	const commLen = 15 // TASK_COMM_LEN - 1
	for _, comm := range execs {
		i := slices.IndexFunc(bins, func(b recordedBinary) bool {
			base := filepath.Base(b.path)
			return base[:min(len(base), commLen)] == comm
		})
		if i >= 0 {
			return i
		}
	}
	return -1
}

// programIndex is the index of the binary perf record's command line
// runs: the first word of its arguments (those of `sh -c "..."` too) that
// is a binary's path, or else its base name; -1 when none is.
func programIndex(cmdline []string, bins []recordedBinary) int {
	if len(cmdline) < 2 {
		return -1
	}
	for _, arg := range cmdline[1:] { // [0] is perf itself
		for _, word := range strings.Fields(arg) {
			if i := slices.IndexFunc(bins, func(b recordedBinary) bool { return b.path == word }); i >= 0 {
				return i
			}
			if i := slices.IndexFunc(bins, func(b recordedBinary) bool { return filepath.Base(b.path) == filepath.Base(word) }); i >= 0 {
				return i
			}
		}
	}
	return -1
}

// sayChosen says on one line which binary the one output file holds the
// profile of, why, and which binaries were left out.
func sayChosen(p *plan, chosen recordedBinary, why string, left []recordedBinary) {
	names := make([]string, len(left))
	for i, r := range left {
		names[i] = r.path
	}
	leftOut := "none other found"
	if len(names) > 0 {
		leftOut = strings.Join(names, ", ")
	}
	fmt.Fprintf(p.Stderr, "profgen: -o %s is one file: it holds the profile of %s (%s); left out: %s (-o DIR/ or a pattern with %%b writes one per binary)\n",
		p.namesOneFile().path, chosen.path, why, leftOut)
}
