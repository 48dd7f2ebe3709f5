package driver

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/atomicfile"
)

// The outputs of one run: --format into -o (the address profile with
// --skip-symbolization), then each --also FORMAT=PATH, from one read of
// the input. Each is an output of the plan (newPlan); the scan counts
// what any of them needs (plan.anyOutput), and writeProfiles writes each
// through its row of outputTable, every file committed only once all of
// them are written.

// AlsoOutput is one more output of the same input (--also FORMAT=PATH):
// Format is a --format value, Output a file, directory or %b pattern as
// -o.
type AlsoOutput struct{ Format, Output string }

func (o *output) unsymbolized() bool { return !o.symbolized() }

// countsLLVM reports whether the output is made of the LLVM counters of
// branch stacks (ranges and branches), not of BOLT's traces.
func (o *output) countsLLVM() bool { return !o.countsTraces() }

// namesFrames reports whether the output names the frames outside the
// binaries by perf's symbols (pprof, and the address profile, which may
// become pprof).
func (o *output) namesFrames() bool {
	return o.format == formatPprof || o.format == formatAddress
}

// isGCC reports whether the output is GCC's.
func (o *output) isGCC() bool { return o.format == formatGCC }

// validateOutputs refuses, before any input is read, an output that no
// input could give, and two outputs that would write the same file.
func validateOutputs(opts Options, p *plan) error {
	for _, a := range opts.Also {
		if a.Output == "" || a.Format == "" {
			return usagef("--also %s=%s: want FORMAT=PATH", a.Format, a.Output)
		}
	}
	if opts.GCC != (GCCOptions{}) && !p.anyOutput((*output).isGCC) {
		return usagef("--gcov-version, --gcc-fold-discriminators and --gcc-zeros-as-one apply to --format=gcc")
	}
	if opts.Propeller != (PropellerOptions{}) && !p.anyOutput(func(o *output) bool { return o.format == formatPropeller }) {
		return usagef("--propeller-cc-version and --propeller-edges apply to --format=propeller")
	}
	for _, o := range p.outputs {
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
func hybridReadings(p *plan) (branchMode, error) {
	var modes []branchMode
	var names []string
	for _, o := range p.outputs {
		m := o.hybridReading()
		if !slices.Contains(modes, m) {
			modes, names = append(modes, m), append(names, o.name())
		}
	}
	if len(modes) == 1 {
		return modes[0], nil
	}
	return modeUndecided, fmt.Errorf("%s holds hybrid samples (perf record -b -g), which %s read differently (contexts, flat branch stacks, BOLT's traces): write them in separate runs",
		p.src.name(), strings.Join(names, " and "))
}

// hybridReading is how one output reads hybrid samples.
func (o *output) hybridReading() branchMode {
	switch {
	case o.countsTraces():
		return modeLBR
	case o.flatHybrid:
		return modeFlatHybrid
	}
	return modeCS
}

// name names an output in a message.
func (o *output) name() string {
	if o.format == formatAddress {
		return "--skip-symbolization"
	}
	return "--format=" + o.flag
}

// writeProfiles writes the profile a source handed over as every output
// of the run asks: each refusal first, then the outputs whose call stacks
// are not repaired, the repair (in.repair) and the others; a file is
// committed only once every file is written, so that a failure leaves none
// of them. With KeepRefused, an output refused for the input's kind is
// left out and named in the result.
func writeProfiles(p *plan, bins *binaries, in *profileInput) (*Result, error) {
	res := &Result{Kind: in.kind.String(), Samples: in.samples, Profiles: in.profiles}
	rows, err := p.rowsFor(in.kind, res)
	if err != nil {
		return nil, err
	}
	var files pendingFiles
	defer files.abort()
	for _, i := range unsymbolizedFirst(p.outputs) {
		o := p.outputs[i]
		if rows[i] == nil {
			continue
		}
		if o.symbolized() && in.repair != nil {
			in.repair()
			in.repair = nil
		}
		written, err := rows[i].write(o, bins.forOutput(o), in, &files)
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, written...)
	}
	return res, files.commit()
}

// rowsFor are the rows that write kind as each output asks; an output
// refused is nil, in res.Refused with KeepRefused.
func (p *plan) rowsFor(kind profileKind, res *Result) ([]*outputRow, error) {
	rows := make([]*outputRow, len(p.outputs))
	for i, o := range p.outputs {
		row, err := outputFor(kind, o)
		var refused *RefusedError
		switch {
		case err == nil:
			rows[i] = row
		case p.keepRefused && errors.As(err, &refused):
			res.Refused = append(res.Refused, refused)
		default:
			return nil, err
		}
	}
	return rows, nil
}

// refusedBeforeReading is the refusal of an output for kind, known before
// the input is read; with KeepRefused, only when every output is refused
// (the others are written, the refused listed in the result by rowsFor).
func (p *plan) refusedBeforeReading(kind profileKind) error {
	var first error
	for _, o := range p.outputs {
		_, err := outputFor(kind, o)
		if err == nil && p.keepRefused {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// unsymbolizedFirst orders the outputs' indexes: those that take call
// stacks as perf unwound them before those that take them repaired.
func unsymbolizedFirst(outs []*output) []int {
	order := make([]int, 0, len(outs))
	for _, first := range []bool{true, false} {
		for i, o := range outs {
			if o.unsymbolized() == first {
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
