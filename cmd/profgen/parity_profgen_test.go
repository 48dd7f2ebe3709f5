package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// The llvm-profgen side of the parity table: each row runs profgen and the
// real llvm-profgen-19 on the same inputs with the same flags (llvm gets
// its own arguments where profgen has flags llvm-profgen 19 lacks) and
// compares the output file, stdout and llvm-profgen's "warning:" lines
// (sorted: llvm prints detailed range warnings in hash order). Inputs:
// {drv:NAME} the small checked-in binaries and scripts of
// internal/driver/testdata, {data:DIR/NAME} the test data of `make
// testdata` (skipped without it), {NAME} a file of testdata/parity.

type profgenRow struct {
	name     string
	args     []string
	llvm     []string // llvm-profgen-19's arguments when they differ
	bothFail bool     // both exit non-zero; profgen leaves no output
	noOutput bool     // both succeed without writing the output file (--show-disassembly-only)
	// rendered compares llvm-profdata-19's text of the outputs and their
	// symbol lists, not their bytes: extbinary CS profiles list their
	// function metadata in LLVM's hash table order (README).
	rendered bool
	// since20: args give a flag llvm-profgen 19 lacks (llvm holds 19's
	// arguments without it); llvm-profgen 22 takes args as they are.
	since20 bool
}

// listing runs --show-disassembly-only on binary with more flags; it
// reads no input and writes no output file.
func listing(binary string, flags ...string) profgenRow {
	args := append([]string{"--binary=" + binary, "--show-disassembly-only", "-o", "{out}"}, flags...)
	return profgenRow{name: strings.Join(append([]string{binary}, flags...), " "), args: args, noOutput: true}
}

// wf is the wordfreq LBR recording of `make testdata`.
var wf = []string{"--binary={data:lbr/wordfreq/binary}", "--perfscript={data:lbr/wordfreq/single.script}"}

// csProbe and csNoProbe are hybrid recordings (lbrgen) of testdata/parity/cs.c
// built with and without pseudo probes (see the README there).
var (
	csProbe   = []string{"--binary={cs-probe.bin}", "--perfscript={cs-bare.script}"}
	csNoProbe = []string{"--binary={cs-noprobe.bin}", "--perfscript={cs-noprobe.script}"}
	recNoMmap = []string{"--binary={rec-probe-nopie.bin}", "--perfscript={rec-nommap.script}"}
	tailcall  = []string{"--binary={tailcall.bin}", "--perfscript={tailcall.script}"}
	// halfInline: half-inline.c's first 20 samples, where llvm-profgen
	// marks the half-inlined context as profgen does.
	halfInline = []string{"--binary={half-inline.bin}", "--perfscript={half-inline-20.script}"}
)

// tb is the small checked-in program and its hand-made LBR script.
var tb = []string{"--binary={drv:t.bin}", "--perfscript={drv:t.script}"}

// elsewhere and elsewhereHybrid are samples with no branch in t.bin
// (testdata/parity/README).
var (
	elsewhere       = []string{"--binary={drv:t.bin}", "--perfscript={lbr-elsewhere.script}"}
	elsewhereHybrid = []string{"--binary={drv:t.bin}", "--perfscript={lbr-elsewhere-hybrid.script}"}
)

// coff is a PE image and its LBR trace in the layout of LLVM's
// coff-profile test (testdata/parity/README).
var (
	coff      = []string{"--binary={coff.exe}", "--perfscript={coff.script}"}
	coffProbe = []string{"--binary={coff-probe.exe}", "--perfscript={coff-probe.script}"}
)

func with(base []string, args ...string) []string {
	return append(append([]string{}, base...), append(args, "-o", "{out}")...)
}

var profgenParityTable = []profgenRow{
	{name: "text", args: with(tb, "--format=text")},
	{name: "extbinary (default)", args: with(wf)},
	{name: "binary", args: with(wf, "--format=binary")},
	{name: "--update-total-samples", args: with(wf, "--format=text", "--update-total-samples")},
	{name: "--fill-zero-for-all-funcs", args: with(wf, "--format=text", "--fill-zero-for-all-funcs")},
	{name: "--leading-ip-only", args: with(wf, "--format=text", "--leading-ip-only")},
	{name: "--leading-ip-only, samples without a branch stack", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-iponly.script}"}, "--format=text", "--leading-ip-only")},
	{name: "--leading-ip-only --skip-symbolization, samples without a branch stack", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-iponly.script}"}, "--skip-symbolization", "--leading-ip-only")},
	{name: "--sample-period=3", args: with(wf, "--format=text", "--sample-period=3")},
	{name: "--sample-period=1 given", args: with(tb, "--format=text", "--sample-period=1")},
	{name: "--sample-period --leading-ip-only", args: with(wf, "--format=text", "--sample-period=7", "--leading-ip-only")},
	{name: "--populate-profile-symbol-list", args: with(wf, "--populate-profile-symbol-list")},
	{name: "--populate-profile-symbol-list ignored for text", args: with(tb, "--format=text", "--populate-profile-symbol-list")},
	{name: "--show-density", args: with(wf, "--format=text", "--show-density")},
	{name: "--profile-density-threshold", args: with(tb, "--format=text", "--profile-density-threshold=10", "--show-density")},
	{name: "--profile-density-cutoff-hot=0", args: with(tb, "--format=text", "--profile-density-cutoff-hot=0")},
	{name: "--profile-density-cutoff-hot=500000", args: with(wf, "--format=text", "--profile-density-cutoff-hot=500000", "--show-density")},
	{name: "--show-mmap-events", args: with(wf, "--format=text", "--show-mmap-events")},
	{name: "range warnings", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-mismatch.script}"}, "--format=text")},
	{name: "--show-detailed-warning", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-mismatch.script}"}, "--format=text", "--show-detailed-warning")},
	{name: "no mmap event: preferred base warned", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-nommap.script}"}, "--format=text")},
	{name: "lines that are no record named", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-skipped.script}"}, "--format=text")},
	{name: "lines that are no record named, --leading-ip-only", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-skipped.script}"}, "--skip-symbolization", "--leading-ip-only")},
	{name: "malformed entries named by line", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-bad.script}"}, "--format=text")},
	{name: "--skip-symbolization --use-offset=0", args: with(wf, "--skip-symbolization", "--use-offset=0")},
	{name: "--skip-symbolization --use-first-loadable-segment-as-base", args: with(wf, "--skip-symbolization", "--use-first-loadable-segment-as-base")},
	// Without symbolization profgen checks ranges against the binary's
	// functions only when asked (README): it saves loading the DWARF.
	{name: "--skip-symbolization --use-first-loadable-segment-as-base, non-PIE", args: with(tb, "--skip-symbolization", "--use-first-loadable-segment-as-base", "--show-detailed-warning")},
	{name: "--unsymbolized-profile --use-offset=0", args: []string{"--binary={drv:t.bin}", "--unsymbolized-profile={lbr-absolute.raw}", "--use-offset=0", "--format=text", "-o", "{out}"}},
	{name: "--unsymbolized-profile without ranges", args: []string{"--binary={drv:t.bin}", "--unsymbolized-profile={unsym-empty.raw}", "--format=text", "-o", "{out}"}},
	{name: "--unsymbolized-profile without ranges --fill-zero-for-all-funcs", args: []string{"--binary={drv:t.bin}", "--unsymbolized-profile={unsym-empty.raw}", "--format=text", "--fill-zero-for-all-funcs", "-o", "{out}"}},
	{name: "--unsymbolized-profile without ranges, extbinary", args: []string{"--binary={drv:t.bin}", "--unsymbolized-profile={unsym-empty.raw}", "-o", "{out}"}},
	{name: "--llvm-sample-profile", args: []string{"--binary={drv:t.bin}", "--llvm-sample-profile={gen.sample.txt}", "-o", "{out}"}},
	{name: "--llvm-sample-profile to text", args: []string{"--binary={drv:t.bin}", "--llvm-sample-profile={gen.sample.txt}", "--format=text", "--update-total-samples", "-o", "{out}"}},
	{name: "--llvm-sample-profile --populate-profile-symbol-list", args: []string{"--binary={drv:t.bin}", "--llvm-sample-profile={gen.sample.txt}", "--populate-profile-symbol-list", "-o", "{out}"}},
	{name: "--llvm-sample-profile with --perfscript", args: with(tb, "--llvm-sample-profile={gen.sample.txt}"), bothFail: true},
	{name: "--kernel", args: with([]string{"--binary={drv:t.bin}", "--perfscript={lbr-kernel.script}"}, "--kernel", "--format=text")},
	{name: "--kernel without a kernel mmap", args: with(tb, "--kernel"), bothFail: true},
	{name: "--show-source-locations alone", args: with(tb, "--show-source-locations"), bothFail: true},
	// Profiles without contexts are trimmed too (llvm's
	// cold-profile-trimming tests): main (68) is below the cold count.
	{name: "--trim-cold-profile --profile-summary-cold-count", args: with(tb, "--format=text", "--trim-cold-profile", "--profile-summary-cold-count=70")},
	{name: "--trim-cold-profile, summary's threshold", args: with(wf, "--trim-cold-profile")},
	{name: "--trim-cold-profile extbinary", args: with(wf, "--trim-cold-profile", "--profile-summary-cold-count=1000")},
	{name: "--trim-cold-profile --llvm-sample-profile", args: []string{"--binary={drv:t.bin}", "--llvm-sample-profile={gen.sample.txt}", "--format=text", "--trim-cold-profile", "--profile-summary-cold-count=70", "-o", "{out}"}},
	{name: "--trim-cold-profile --unsymbolized-profile", args: []string{"--binary={drv:t.bin}", "--unsymbolized-profile={drv:t.llvm19.raw}", "--format=text", "--trim-cold-profile", "--profile-summary-cold-count=70", "-o", "{out}"}},
	{name: "summary flags", args: with(wf, "--profile-summary-cold-count=0", "--profile-summary-hot-count=10", "--profile-summary-contextless")},
	{name: "disassembly and dwp flags without --show-disassembly-only", args: with(tb, "--format=text", "--show-canonical-fname", "--disassemble-functions=main,bar", "--dwp=nosuch.dwp")},
	{name: "--load-function-from-symbol (llvm 20)", args: with(tb, "--format=text", "--load-function-from-symbol=0"), llvm: with(tb, "--format=text"), since20: true},
	{name: "--use-md5", args: with(wf, "--use-md5")},
	{name: "--use-md5 ignored for text", args: with(tb, "--format=text", "--use-md5")},
	// Context-sensitive input in the layouts of LLVM's own llvm-profgen
	// tests, with llvm's warnings (leaf external frames, contexts cut at
	// external frames).
	{name: "CS: call chains indented with spaces", args: with(csProbe, "--format=text")},
	{name: "CS: call chains indented with spaces, unsymbolized", args: with(csProbe, "--skip-symbolization")},
	{name: "CS: pre-aggregated counts", args: with([]string{"--binary={cs-probe.bin}", "--perfscript={cs-agg.script}"}, "--format=text", "--gen-cs-nested-profile=0")},
	{name: "CS: pid lines of their own", args: with([]string{"--binary={cs-probe.bin}", "--perfscript={cs-pid.script}"}, "--skip-symbolization")},
	{name: "CS: --ignore-stack-samples --update-total-samples (probes)", args: with(csProbe, "--format=text", "--ignore-stack-samples", "--update-total-samples")},
	{name: "CS: --show-density", args: with(csNoProbe, "--format=text", "--show-density", "--profile-density-threshold=100000")},
	{name: "CS: --show-detailed-warning", args: with(csNoProbe, "--format=text", "--gen-cs-nested-profile=0", "--show-detailed-warning")},
	{name: "CS: --populate-profile-symbol-list", args: with(csNoProbe, "--populate-profile-symbol-list"), rendered: true},
	// llvm-profgen 22 adds the functions only .symtab knows (_start) to
	// the symbol list of a probe binary; 19 as --load-function-from-symbol=0.
	{name: "CS: --populate-profile-symbol-list, probes", args: with(csProbe, "--populate-profile-symbol-list", "--gen-cs-nested-profile=0", "--load-function-from-symbol=0"),
		llvm: with(csProbe, "--populate-profile-symbol-list", "--gen-cs-nested-profile=0"), rendered: true, since20: true},
	{name: "CS: --use-md5 ignored for text", args: with(csNoProbe, "--format=text", "--use-md5")},
	// LLVM's recursion-compression-pseudoprobe / merge-cold-profile class:
	// recursion, no MMAP at all (llvm's warning), an explicit hot count of
	// 0 (nothing merged as cold).
	{name: "CS: recursion without MMAP, --profile-summary-hot-count=0", args: with(recNoMmap, "--format=text", "--profile-summary-hot-count=0", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "CS: recursion without MMAP, unsymbolized", args: with(recNoMmap, "--skip-symbolization", "--profile-summary-hot-count=0")},
	{name: "CS: recursion, --compress-recursion=0 --csprof-max-context-depth=0", args: with(recNoMmap, "--format=text", "--compress-recursion=0", "--profile-summary-hot-count=0", "--csprof-max-context-depth=0", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "CS: recursion, --csprof-max-cold-context-depth=2", args: with(recNoMmap, "--format=text", "--compress-recursion=-1", "--profile-summary-hot-count=100", "--trim-cold-profile=0", "--csprof-max-cold-context-depth=2", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	// --generate-merged-base-profiles: every context nested into a caller
	// also merged into its function's top-level profile, the inlinee
	// marked !Attributes 4 (LLVM's ProfileConverter, as in merge).
	{name: "CS: --generate-merged-base-profiles, probes", args: with(csProbe, "--format=text", "--generate-merged-base-profiles")},
	{name: "CS: --generate-merged-base-profiles --csspgo-preinliner=0", args: with(csNoProbe, "--format=text", "--generate-merged-base-profiles", "--csspgo-preinliner=0")},
	{name: "CS: --generate-merged-base-profiles, recursion", args: with(recNoMmap, "--format=text", "--generate-merged-base-profiles")},
	{name: "CS: --generate-merged-base-profiles extbinary", args: with(csNoProbe, "--generate-merged-base-profiles", "--csspgo-preinliner=0", "--populate-profile-symbol-list"), rendered: true},
	// A call site inlined and not (half-inline.bin): where llvm-profgen
	// marks the context inlined too, the profiles are equal; where it does
	// not, TestContextWasInlinedFromAnySample shows the one difference.
	{name: "CS: a call site inlined and not", args: with(halfInline, "--format=text", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "CS: a call site inlined and not, extbinary", args: with(halfInline, "--csspgo-preinliner=0", "--gen-cs-nested-profile=0", "--populate-profile-symbol-list"), rendered: true},
	{name: "CS: a call site inlined and not, --csspgo-replay-preinline", args: with(halfInline, "--format=text", "--csspgo-replay-preinline")},
	// Tail calls (tailcall.bin): the frames they lose are inferred by a
	// search of tail-call chains, --max-search-depth deep; the chain
	// through mid1 is cut at depth 2, leaving the one through mid2 unique.
	{name: "CS: tail calls inferred", args: with(tailcall, "--format=text", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "CS: tail calls, --max-search-depth=0", args: with(tailcall, "--format=text", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0", "--max-search-depth=0")},
	{name: "CS: tail calls, --max-search-depth=1", args: with(tailcall, "--format=text", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0", "--max-search-depth=1")},
	{name: "CS: tail calls, --max-search-depth=2", args: with(tailcall, "--format=text", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0", "--max-search-depth=2")},
	{name: "CS: tail calls, --max-search-depth=2, nested", args: with(tailcall, "--format=text", "--max-search-depth=2")},
	{name: "CS: tail calls, --infer-missing-frames=0", args: with(tailcall, "--format=text", "--infer-missing-frames=0")},
	// llvm's warnings about broken hybrid samples, counted as it counts
	// them (per distinct sample): external branch ends without a pair,
	// stacks cut at invalid return addresses, ranges outside functions.
	{name: "CS: unwinder and range warnings", args: with([]string{"--binary={cs-noprobe.bin}", "--perfscript={cs-warn.script}"}, "--format=text")},
	{name: "CS: invalid return addresses, --ignore-stack-samples", args: with([]string{"--binary={cs-noprobe.bin}", "--perfscript={cs-warn.script}"}, "--format=text", "--ignore-stack-samples", "--show-detailed-warning")},
	{name: "CS: unwinder and range warnings, detailed", args: with([]string{"--binary={cs-noprobe.bin}", "--perfscript={cs-warn.script}"}, "--skip-symbolization", "--show-detailed-warning")},
	// A flat CS profile given back (--llvm-sample-profile) goes through the
	// pre-inliner, cold contexts and nesting, as generated ones do.
	{name: "CS: --llvm-sample-profile", args: []string{"--binary={cs-noprobe.bin}", "--llvm-sample-profile={cs-flat-noprobe.sample.txt}", "--format=text", "-o", "{out}"}},
	{name: "CS: --llvm-sample-profile, probes", args: []string{"--binary={cs-probe.bin}", "--llvm-sample-profile={cs-flat-probe.sample.txt}", "--format=text", "--gen-cs-nested-profile=0", "--sample-profile-hot-inline-threshold=3000", "--sample-profile-cold-inline-threshold=45", "-o", "{out}"}},
	{name: "CS: --llvm-sample-profile, probes, --use-dwarf-correlation", args: []string{"--binary={cs-probe.bin}", "--llvm-sample-profile={cs-flat-probe.sample.txt}", "--format=text", "--use-dwarf-correlation", "-o", "{out}"}},
	{name: "CS: --llvm-sample-profile --trim-cold-profile", args: []string{"--binary={cs-probe.bin}", "--llvm-sample-profile={cs-flat-probe.sample.txt}", "--format=text", "--csspgo-preinliner=0", "--trim-cold-profile", "--profile-summary-hot-count=150", "-o", "{out}"}},
	// Branch stacks none of which is in the binary (LLVM's mmapEvent test:
	// MMAP events between the samples, of other binaries): the empty
	// profile, llvm's warnings, exit 0.
	{name: "branch stacks elsewhere: text", args: with(elsewhere, "--format=text", "--show-mmap-events")},
	{name: "branch stacks elsewhere: extbinary", args: with(elsewhere)},
	{name: "branch stacks elsewhere: --skip-symbolization", args: with(elsewhere, "--skip-symbolization")},
	{name: "hybrid samples elsewhere: --ignore-stack-samples", args: with(elsewhereHybrid, "--format=text", "--ignore-stack-samples")},
	{name: "hybrid samples elsewhere: CS", args: with(elsewhereHybrid, "--format=text")},
	// COFF (LLVM's coff-profile test): a PE image with DWARF and its COFF
	// symbols (lld-link /debug:dwarf), its trace in that test's layout (a
	// Windows path; the mmap at the image's load address with .text's RVA
	// as page offset), MSVC-mangled names as they are.
	{name: "COFF: text", args: with(coff, "--format=text")},
	{name: "COFF: extbinary, symbol list", args: with(coff, "--populate-profile-symbol-list")},
	{name: "COFF: --skip-symbolization", args: with(coff, "--skip-symbolization")},
	{name: "COFF: --skip-symbolization --use-offset=0", args: with(coff, "--skip-symbolization", "--use-offset=0")},
	{name: "COFF: --fill-zero-for-all-funcs --show-mmap-events", args: with(coff, "--format=text", "--fill-zero-for-all-funcs", "--show-mmap-events")},
	{name: "COFF: CRLF line ends", args: with([]string{"--binary={coff.exe}", "--perfscript={coff-crlf.script}"}, "--format=text")},
	// llvm-profgen 19 reads no pseudo probe of a PE image (22 does, and
	// profgen): its profile is the one keyed by lines.
	{name: "COFF, pseudo probes: llvm-profgen 19 reads none", args: with(coffProbe, "--format=text", "--use-dwarf-correlation"),
		llvm: with(coffProbe, "--format=text"), since20: true},
	listing("{coff.exe}", "--show-source-locations"),
	listing("../../internal/binary/testdata/arm64-prog.exe"),
	// --show-disassembly-only: stdout byte for byte, on every kind of
	// code the test data has (the instruction texts are LLVM's on these;
	// internal/binary measures them on every test binary).
	listing("{drv:t.bin}"),
	listing("{missing-dwarf.exe}"), // split DWARF, its .dwo absent: llvm's warnings
	listing("{missing-dwarf.exe}", "--show-detailed-warning"),
	listing("{drv:t.bin}", "--show-source-locations", "--show-canonical-fname"),
	listing("{drv:t.bin}", "--disassemble-functions=main,bar", "--show-source-locations"),
	listing("../../internal/binary/pseudoprobe/testdata/probe.elf", "--show-pseudo-probe", "--show-source-locations"),
	listing("../../internal/binary/testdata/arm64-pie.elf", "--show-source-locations"),
	listing("../../internal/binary/testdata/tricky.elf"), // llvm's warnings: no DWARF, invalid instructions
	{name: "--show-disassembly-only reads no input", args: with(tb, "--show-disassembly-only"), noOutput: true},
	{name: "--show-disassembly-only without --output", args: []string{"--binary={drv:t.bin}", "--show-disassembly-only"}, bothFail: true},
	listing("{data:lbr/sqlite/binary}", "--show-source-locations", "--show-canonical-fname"),
	listing("{data:lbr/wordfreq-gcc/binary}", "--show-source-locations"),
	listing("{data:probe/sqlite/binary}", "--show-pseudo-probe", "--show-source-locations"),
	listing("{data:probe/wordfreq/binary}", "--show-pseudo-probe", "--disassemble-functions=main,count_words"),
	listing("{data:probe/wordfreq/binary}", "--show-pseudo-probe", "--use-dwarf-correlation", "--show-source-locations"),
	listing("{data:arm64/sqlite/binary}", "--show-source-locations"),
	listing("{data:arm64/wordfreq-nopie/binary}", "--show-source-locations", "--show-pseudo-probe"),
	listing("{data:binary/clang-O3-avx2-cet.elf}"),
	// --x86-asm-syntax (LLVM's symbolize test): Intel syntax, on the same
	// kinds of code; AArch64 has one syntax.
	listing("{drv:t.bin}", "--x86-asm-syntax=intel"),
	listing("{drv:t.bin}", "--x86-asm-syntax=att", "--show-source-locations"),
	listing("{drv:t.bin}", "--x86-asm-syntax=intel", "--show-source-locations", "--show-canonical-fname", "--disassemble-functions=main,bar"),
	listing("../../internal/binary/pseudoprobe/testdata/probe.elf", "--x86-asm-syntax=intel", "--show-pseudo-probe", "--show-source-locations"),
	listing("../../internal/binary/testdata/tricky.elf", "--x86-asm-syntax=intel"),
	listing("../../internal/binary/testdata/arm64-pie.elf", "--x86-asm-syntax=intel"),
	listing("{data:binary/clang-O3-avx2-cet.elf}", "--x86-asm-syntax=intel"),
	listing("{data:binary/gcc-O2.elf}", "--x86-asm-syntax=intel"),
	listing("{data:probe/sqlite/binary}", "--x86-asm-syntax=intel", "--show-pseudo-probe", "--show-source-locations"),
	{name: "--x86-asm-syntax=intel without --show-disassembly-only: no effect", args: with(tb, "--format=text", "--x86-asm-syntax=intel")},
	{name: "--x86-asm-syntax of another name", args: []string{"--binary={drv:t.bin}", "--show-disassembly-only", "--x86-asm-syntax=masm", "-o", "{out}"}, bothFail: true},
}

func TestParityWithLLVMProfgen(t *testing.T) {
	testutil.Tool(t, "llvm-profgen-19")
	pass := 0
	for _, row := range profgenParityTable {
		if t.Run(row.name, func(t *testing.T) { checkProfgenParity(t, "llvm-profgen-19", row) }) {
			pass++
		}
	}
	t.Logf("llvm-profgen parity table: %d of %d rows pass", pass, len(profgenParityTable))
}

// checkProfgenParity runs row with profgen and with ref, the llvm-profgen
// it is compared with.
func checkProfgenParity(t *testing.T, ref string, row profgenRow) {
	dir := t.TempDir()
	ours, theirs := filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")
	llvmArgs := row.llvm
	if llvmArgs == nil {
		llvmArgs = row.args
	}
	oOut, oErr, err := runInProcess(expandProfgenArgs(t, row.args, ours))
	lOut, lErr, lerr := runRef(ref, expandProfgenArgs(t, llvmArgs, theirs))
	if row.bothFail {
		checkBothFail(t, err, lerr, ours, "llvm-profgen-19")
		return
	}
	if err != nil || lerr != nil {
		t.Fatalf("profgen: %v\n%s\n%s: %v\n%s", err, oErr, ref, lerr, lErr)
	}
	switch {
	case row.noOutput:
		checkNoOutput(t, ours, theirs)
	case row.rendered:
		compareRendered(t, strings.Replace(ref, "llvm-profgen", "llvm-profdata", 1), ours, theirs)
	default:
		compareFiles(t, ours, theirs)
	}
	if oOut != lOut {
		t.Errorf("stdout differs:\n%s\n--- %s:\n%s", oOut, ref, lOut)
	}
	if a, b := llvmWarnings(oErr), llvmWarnings(lErr); a != b {
		t.Errorf("warnings differ:\n%s\n--- %s:\n%s", a, ref, b)
	}
}

// compareRendered compares the text profdata (llvm-profdata-19 or -22)
// renders of two sample profiles and their symbol lists.
func compareRendered(t *testing.T, profdata, ours, theirs string) {
	t.Helper()
	run := func(args ...string) string {
		out, _, err := runRef(profdata, args)
		if err != nil {
			t.Fatalf("%s %v: %v", profdata, args, err)
		}
		return out
	}
	if a, b := run("merge", "--sample", "--text", "-o", "-", ours), run("merge", "--sample", "--text", "-o", "-", theirs); a != b {
		t.Errorf("output differs from the reference's:\n%s\n---\n%s", a, b)
	}
	if a, b := run("show", "--sample", "--show-prof-sym-list", ours), run("show", "--sample", "--show-prof-sym-list", theirs); a != b {
		t.Errorf("symbol lists differ:\n%s\n---\n%s", a, b)
	}
}

// checkNoOutput checks that neither tool wrote its output file.
func checkNoOutput(t *testing.T, ours, theirs string) {
	t.Helper()
	for _, p := range []string{ours, theirs} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written", p)
		}
	}
}

// llvmWarnings are the lines starting "warning:", sorted.
func llvmWarnings(stderr string) string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "warning:") {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

func expandProfgenArgs(t *testing.T, args []string, out string) []string {
	res := make([]string, len(args))
	for i, a := range args {
		res[i] = placeholder.ReplaceAllStringFunc(a, func(m string) string {
			name := m[1 : len(m)-1]
			if drv, ok := strings.CutPrefix(name, "drv:"); ok {
				return "../../internal/driver/testdata/" + drv
			}
			if data, ok := strings.CutPrefix(name, "data:"); ok {
				return testutil.DataDir(t, strings.Split(data, "/")...)
			}
			return inputPath(t, name, out)
		})
	}
	return res
}
