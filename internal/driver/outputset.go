package driver

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/atomicfile"
)

// The outputs of one run: --format into -o (the address profile with
// --skip-symbolization), then each --also FORMAT=PATH, from one read of
// the input. Each output is the Options of a run that asks for it alone
// (withOutputs); the scan counts what any of them needs (anyOutput), and
// writeProfiles writes each through its row of outputTable, every file
// committed only once all of them are written.

// AlsoOutput is one more output of the same input (--also FORMAT=PATH):
// Format is a --format value, Output a file, directory or %b pattern as
// -o.
type AlsoOutput struct{ Format, Output string }

// withOutputs returns the first output's options with defaults, holding
// every output of the run.
func withOutputs(opts Options) Options {
	outs := []Options{withDefaults(opts)}
	for _, a := range opts.Also {
		o := opts
		o.Format, o.Output, o.SkipSymbolization, o.Also = a.Format, a.Output, false, nil
		o.UseMD5 = o.UseMD5 && a.Format == "extbinary" // --use-md5 is extbinary's
		outs = append(outs, withDefaults(o))
	}
	first := outs[0]
	first.outputs = outs
	return first
}

// eachOutput is the outputs of the run (withOutputs), or opts alone.
func eachOutput(opts Options) []Options {
	if len(opts.outputs) == 0 {
		return []Options{opts}
	}
	return opts.outputs
}

// anyOutput reports whether an output of the run satisfies pred.
func anyOutput(opts Options, pred func(Options) bool) bool {
	return slices.ContainsFunc(eachOutput(opts), pred)
}

func unsymbolized(opts Options) bool { return !symbolized(opts) }

// countsLLVM reports whether the output is made of the LLVM counters of
// branch stacks (ranges and branches), not of BOLT's traces.
func countsLLVM(opts Options) bool { return !countsTraces(opts) }

// namesFrames reports whether the output names the frames outside the
// binaries by perf's symbols (pprof, and the address profile, which may
// become pprof).
func namesFrames(opts Options) bool {
	return formatOf(opts) == formatPprof || formatOf(opts) == formatAddress
}

// validateOutputs refuses, before any input is read, an output that no
// input could give, and two outputs that would write the same file.
func validateOutputs(opts Options) error {
	for _, a := range opts.Also {
		if a.Output == "" || a.Format == "" {
			return usagef("--also %s=%s: want FORMAT=PATH", a.Format, a.Output)
		}
	}
	if opts.GCC != (GCCOptions{}) && !anyOutput(opts, func(o Options) bool { return formatOf(o) == formatGCC }) {
		return usagef("--gcov-version, --gcc-fold-discriminators and --gcc-zeros-as-one apply to --format=gcc")
	}
	for _, o := range eachOutput(opts) {
		if err := validateOutput(o); err != nil {
			return err
		}
	}
	return nil
}

// checkDistinct refuses two outputs with a file in common among paths
// (the files of each output, by output).
func checkDistinct(paths [][]string) error {
	owner := map[string]int{}
	for i, ps := range paths {
		for _, p := range ps {
			if o, seen := owner[p]; seen && o != i {
				return usagef("two outputs would write %s: give --also another path (in a directory, formats of one extension clash)", p)
			}
			owner[p] = i
		}
	}
	return nil
}

// hybridReadings is how the outputs read hybrid samples (call stack and
// branch stack): unwound into contexts (modeCS), as the flat profile of
// their branch stacks (modeFlatHybrid, GCC and --ignore-stack-samples),
// or as plain branch stacks (modeLBR, BOLT, as perf2bolt). One scan reads
// them one way: outputs that disagree are refused once the input turns out
// hybrid.
func hybridReadings(opts Options) (branchMode, error) {
	var modes []branchMode
	var names []string
	for _, o := range eachOutput(opts) {
		m := hybridReading(o)
		if !slices.Contains(modes, m) {
			modes, names = append(modes, m), append(names, outputName(o))
		}
	}
	if len(modes) == 1 {
		return modes[0], nil
	}
	return modeUndecided, fmt.Errorf("%s holds hybrid samples (perf record -b -g), which %s read differently (contexts, flat branch stacks, BOLT's traces): write them in separate runs",
		inputName(opts), strings.Join(names, " and "))
}

// hybridReading is how one output reads hybrid samples.
func hybridReading(o Options) branchMode {
	switch {
	case countsTraces(o):
		return modeLBR
	case o.CS.IgnoreStackSamples:
		return modeFlatHybrid
	}
	return modeCS
}

// outputName names an output in a message.
func outputName(o Options) string {
	if o.SkipSymbolization {
		return "--skip-symbolization"
	}
	return "--format=" + o.Format
}

// writeProfiles writes the profile a source handed over as every output
// of the run asks: each refusal first, then the outputs whose call stacks
// are not repaired, the repair (in.repair) and the others; a file is
// committed only once every file is written, so that a failure leaves none
// of them.
func writeProfiles(opts Options, bins *binaries, in *profileInput) error {
	outs := eachOutput(opts)
	rows := make([]*outputRow, len(outs))
	for i, o := range outs {
		row, err := outputFor(in.kind, o)
		if err != nil {
			return err
		}
		rows[i] = row
	}
	var files pendingFiles
	defer files.abort()
	for _, i := range unsymbolizedFirst(outs) {
		if symbolized(outs[i]) && in.repair != nil {
			in.repair()
			in.repair = nil
		}
		if err := rows[i].write(outs[i], bins.forOutput(outs[i]), in, &files); err != nil {
			return err
		}
	}
	return files.commit()
}

// unsymbolizedFirst orders the outputs' indexes: those that take call
// stacks as perf unwound them before those that take them repaired.
func unsymbolizedFirst(outs []Options) []int {
	order := make([]int, 0, len(outs))
	for _, first := range []bool{true, false} {
		for i, o := range outs {
			if unsymbolized(o) == first {
				order = append(order, i)
			}
		}
	}
	return order
}

// pendingFiles are the files written and not yet committed.
type pendingFiles []*atomicfile.File

// add writes path whole into a temporary file (atomicfile), committed
// with the others.
func (p *pendingFiles) add(path string, write func(io.Writer) error) error {
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	*p = append(*p, f)
	if err := write(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// commit publishes every file, in the order written; after a failure,
// the rest are discarded (abort).
func (p *pendingFiles) commit() error {
	for _, f := range *p {
		if err := f.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// abort discards the files not committed.
func (p *pendingFiles) abort() {
	for _, f := range *p {
		f.Abort()
	}
}
