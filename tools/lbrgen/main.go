// Command lbrgen makes exact LBR traces, in perf script's text layout, from
// valgrind lackey instruction traces. There is no LBR hardware where
// profgen is tested; lackey prints every executed instruction, and every
// instruction that does not start where the previous one ended is the
// target of a taken branch from the previous one. lbrgen keeps the last
// taken branches in a ring, as the CPU's Last Branch Record does, and
// every -period instructions prints a sample: the current instruction's
// address and the ring, newest branch first.
//
// Usage:
//
//	lbrgen [flags] -binary PROG [-- ARGS...]        run PROG ARGS under valgrind
//	lbrgen [flags] -binary PROG -lackey FILE        read a saved lackey trace
//
// An AArch64 PROG runs under qemu-aarch64 -singlestep -d exec,nochain
// instead (-sysroot for its libraries), whose log holds every executed PC
// (-qemu-log FILE reads a saved one); its branch stacks are BRBE's, printed
// in the same layout.
//
// Outputs (each optional; all come from the same run):
//
//	-single FILE    one process, llvm-profgen-19's layout (no PID column)
//	-multi PREFIX   -procs processes at different bases, interleaved
//	-fork PREFIX    one process, then two forked children (no MMAP2 of their own)
//	-reuse PREFIX   a process that exits every -reuse-every samples and
//	                comes back with the same PID at another base, next to
//	                a long-lived one
//	-hybrid-single FILE, -hybrid-multi PREFIX
//	                as -single and -multi, with hybrid samples
//	-stack PREFIX   -procs processes of call-stack samples (perf record -g),
//	                as perf script -F pid,time,period,event,ip,sym,dso
//
// With -perfdata, each output is also written as perf.data (FILE.script
// gives FILE.perf.data; PREFIX gives PREFIX.perf.data), which perf script
// prints as lbrgen's text; with -dso-buildids its build-id table lists
// the shared objects mapped as well as the binary. Hybrid samples (-hybrid: every output) carry
// the call chain of a shadow call stack as well as the branch stack, as
// perf record -b -g records them.
//
// A PREFIX output is PREFIX.script, as `perf script --show-mmap-events
// --show-task-events -F pid,ip,brstack` prints it (with -full, also
// PREFIX-full.script, the same with perf's default leading columns); PREFIX.<pid>.script
// (PREFIX.<pid>-<n>.script for a reused PID) per process, in
// llvm-profgen-19's layout, so that llvm-profgen-19 can be run on each
// process alone; and PREFIX.procs, a table of the processes.
//
// Addresses: the binary is moved from where valgrind loaded it (0x108000
// for a PIE) to a random ASLR-like base per process; code outside the
// binary (ld.so, libc) is moved into 0x7f... ranges. Everything is drawn
// from -seed: the same input gives the same bytes.
package main

import (
	"debug/elf"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

type options struct {
	binary     string
	lackey     string
	mapsFile   string
	stdin      string
	path       string
	single     string
	multi      string
	fork       string
	reuse      string
	full       bool
	perfData   bool
	dsoIDs     bool
	hybrid     bool
	hySingle   string
	hyMulti    string
	stack      string
	qemuLog    string
	qemuCPU    int
	sysroot    string
	vgBiasSet  bool
	procs      int
	reuseEvery uint64
	forkAfter  uint64
	period     uint64
	depth      int
	flags      string
	seed       uint64
	vgBias     uint64
	maxInsns   uint64
	args       []string
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("lbrgen", flag.ContinueOnError)
	fs.StringVar(&o.binary, "binary", "", "profiled ELF binary (required)")
	fs.StringVar(&o.lackey, "lackey", "", "read this lackey trace (\"-\" = stdin) instead of running valgrind")
	fs.StringVar(&o.mapsFile, "maps", "", "with -lackey: /proc/PID/maps of the traced process, for the shared objects' MMAP2 records")
	fs.StringVar(&o.stdin, "stdin", "", "file given to the traced program as standard input")
	fs.StringVar(&o.path, "path", "", "binary path printed in MMAP2 records (default: absolute path of -binary)")
	fs.StringVar(&o.single, "single", "", "write a single-process script to this file")
	fs.StringVar(&o.multi, "multi", "", "write concurrent processes: PREFIX.script, PREFIX.<pid>.script")
	fs.StringVar(&o.fork, "fork", "", "write a process and two forked children: PREFIX.script, PREFIX.<pid>.script")
	fs.StringVar(&o.reuse, "reuse", "", "write PID reuse: PREFIX.script, PREFIX.<pid>-<n>.script")
	fs.BoolVar(&o.full, "full", false, "also write PREFIX-full.script: perf's default leading columns (comm pid/tid [cpu] time: event:) instead of the PID column")
	fs.BoolVar(&o.perfData, "perfdata", false, "also write each -single FILE.script as FILE.perf.data and each PREFIX as PREFIX.perf.data")
	fs.BoolVar(&o.dsoIDs, "dso-buildids", false, "with -perfdata: the build-id table also lists every shared object mapped that has a build id (as perf record lists the DSOs with samples), not the binary alone")
	fs.BoolVar(&o.hybrid, "hybrid", false, "samples carry their call chains too (perf record -b -g) in every output")
	fs.StringVar(&o.hySingle, "hybrid-single", "", "also write a hybrid single-process script to this file (beside non-hybrid outputs)")
	fs.StringVar(&o.hyMulti, "hybrid-multi", "", "also write hybrid concurrent processes: PREFIX.script, PREFIX.<pid>.script")
	fs.StringVar(&o.stack, "stack", "", "also write call-stack samples (perf record -g, no branch stack) of -procs processes: PREFIX.script, PREFIX.<pid>.script")
	fs.StringVar(&o.qemuLog, "qemu-log", "", "AArch64: read this qemu -singlestep -d exec,nochain log (\"-\" = stdin) instead of running qemu-aarch64")
	fs.IntVar(&o.qemuCPU, "qemu-cpu", 0, "AArch64: the qemu CPU (guest thread) whose instructions are traced")
	fs.StringVar(&o.sysroot, "sysroot", "/usr/aarch64-linux-gnu", "AArch64: the guest root given to qemu-aarch64 -L (dynamic loader, libraries)")
	fs.IntVar(&o.procs, "procs", 4, "processes of -multi")
	fs.Uint64Var(&o.reuseEvery, "reuse-every", 500, "samples between the exit and rebirth of the reused PID")
	fs.Uint64Var(&o.forkAfter, "fork-after", 200, "samples of the parent before it forks")
	fs.Uint64Var(&o.period, "period", 1000, "instructions between samples")
	fs.IntVar(&o.depth, "depth", 16, "LBR entries per sample (1-32)")
	fs.StringVar(&o.flags, "flags", "plain", "brstack flag layout: plain (P/-/-/0), typed (M/-/-/12/COND/-), spec (P/-/-/0//NON_SPEC_CORRECT_PATH)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed for bases, PIDs, interleaving and mispredict flags")
	fs.Uint64Var(&o.vgBias, "vgbias", 0x108000, "load bias valgrind gives a PIE (AArch64: qemu's, 0x5500000000, unless set)")
	fs.Uint64Var(&o.maxInsns, "max-insns", 0, "stop after this many instructions (0 = run to the end)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { o.vgBiasSet = o.vgBiasSet || f.Name == "vgbias" })
	o.args = fs.Args()
	return o, o.validate()
}

func (o *options) validate() error {
	switch {
	case o.binary == "":
		return errors.New("-binary is required")
	case o.single == "" && o.multi == "" && o.fork == "" && o.reuse == "" && o.hySingle == "" && o.hyMulti == "" && o.stack == "":
		return errors.New("nothing to write: give -single, -multi, -fork, -reuse, -hybrid-single, -hybrid-multi or -stack")
	case o.depth < 1 || o.depth > 32:
		return fmt.Errorf("-depth %d: want 1 to 32", o.depth)
	case o.period == 0 || o.reuseEvery == 0:
		return errors.New("-period and -reuse-every must be positive")
	case o.procs < 1:
		return errors.New("-procs must be positive")
	case (o.lackey != "" || o.qemuLog != "") && len(o.args) > 0:
		return errors.New("program arguments given with -lackey or -qemu-log")
	}
	if _, ok := layoutNames[o.flags]; !ok {
		return fmt.Errorf("-flags %q: want plain, typed or spec", o.flags)
	}
	return nil
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err == nil {
		err = run(o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lbrgen: "+err.Error())
		os.Exit(1)
	}
}

func run(o *options) error {
	g, err := newGenerator(o)
	if err != nil {
		return err
	}
	if err := feed(o, g); err != nil {
		g.abort()
		return err
	}
	if err := g.end(); err != nil {
		g.abort()
		return err
	}
	fmt.Fprintf(os.Stderr, "lbrgen: %d instructions, %d samples written\n", g.insns, g.written)
	return nil
}

// feed streams the instructions into g: from valgrind or a saved trace.
func feed(o *options, g *generator) error {
	if g.w.bin.Machine == elf.EM_AARCH64 {
		return feedQemu(o, g)
	}
	if o.lackey == "" {
		v := &valgrindRun{binary: o.binary, args: o.args, stdin: o.stdin}
		g.snapshot = func() ([]mapping, error) { return v.maps(g.w.lay) }
		return v.run(g.instruction)
	}
	if o.mapsFile != "" {
		g.snapshot = func() ([]mapping, error) { return readMapsFile(o.mapsFile, g.w.lay) }
	}
	in := os.Stdin
	if o.lackey != "-" {
		f, err := os.Open(o.lackey)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	return readLackey(in, g.instruction)
}

func newGenerator(o *options) (*generator, error) {
	bin, err := openBinary(o.binary)
	if err != nil {
		return nil, err
	}
	path := o.path
	if path == "" {
		if path, err = filepath.Abs(o.binary); err != nil {
			return nil, err
		}
	}
	return buildGenerator(o, bin, path), nil
}

// buildGenerator wires the recorder to the requested scenarios.
func buildGenerator(o *options, bin *binaryInfo, path string) *generator {
	w := &world{bin: bin, path: path, comm: filepath.Base(path), flags: layoutNames[o.flags], period: o.period, dsoBuildIDs: o.dsoIDs}
	vgBias := o.vgBias
	if bin.Machine == elf.EM_AARCH64 && !o.vgBiasSet {
		vgBias = qemuPIEBias
	}
	w.lay = newLayout(bin, vgBias)
	g := &generator{w: w, maxInsns: o.maxInsns, seed: o.seed, scenarios: o.scenarios(w)}
	g.calls = &branchClassifier{lay: &w.lay, bin: bin}
	g.rec = newRecorder(o.period, o.depth, o.seed, g.calls.classify, g.sample)
	g.rec.toNext = g.calls.branchesToNext
	return g
}

// scenarios lists the requested outputs, each with its own random stream.
func (o *options) scenarios(w *world) []scenario {
	var scs []scenario
	mo := multiOpts{full: o.full, hybrid: o.hybrid, perfData: o.perfData}
	if o.single != "" {
		scs = append(scs, o.singleScenario(w, o.single, o.hybrid, 1))
	}
	if o.multi != "" {
		scs = append(scs, &multiScenario{multiScript: newMultiScript(w, o.multi, o.seed*4+1, mo), procs: o.procs})
	}
	if o.fork != "" {
		scs = append(scs, &forkScenario{multiScript: newMultiScript(w, o.fork, o.seed*4+2, mo), after: o.forkAfter, nchild: 2})
	}
	if o.reuse != "" {
		ro := mo
		ro.reuse = true
		scs = append(scs, &reuseScenario{multiScript: newMultiScript(w, o.reuse, o.seed*4+3, ro), every: o.reuseEvery})
	}
	if o.hySingle != "" {
		scs = append(scs, o.singleScenario(w, o.hySingle, true, 5))
	}
	if o.hyMulti != "" {
		ho := multiOpts{hybrid: true, perfData: o.perfData}
		scs = append(scs, &multiScenario{multiScript: newMultiScript(w, o.hyMulti, o.seed*4+5, ho), procs: o.procs})
	}
	if o.stack != "" {
		so := multiOpts{stack: true, perfData: o.perfData}
		scs = append(scs, &multiScenario{multiScript: newMultiScript(w, o.stack, o.seed*4+6, so), procs: o.procs})
	}
	return scs
}

func (o *options) singleScenario(w *world, path string, hybrid bool, stream uint64) *singleScenario {
	sc := &singleScenario{w: w, path: path, rng: newRand(o.seed, stream), hybrid: hybrid}
	if o.perfData {
		sc.pd = w.newPerfData(hybrid)
	}
	return sc
}
