package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// The llvm-profgen-22 side of the parity table: the rows of
// profgenParityTable run again against llvm-profgen-22, the primary
// reference, but for those giving a flag 22 no longer has (it refuses them
// as unknown; profgen keeps them, see llvm19OnlyFlags), and the rows of
// flags LLVM 20-22 added.

// llvm19OnlyFlags are llvm-profgen-19 flags llvm-profgen-22 refuses
// ("Unknown command line argument"); profgen keeps them with 19's meaning.
var llvm19OnlyFlags = []string{"--leading-ip-only", "--sample-period", "--perf-event"}

// usesLLVM19OnlyFlag reports whether args give one of llvm19OnlyFlags.
func usesLLVM19OnlyFlag(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		name, _, _ := strings.Cut(a, "=")
		return slices.Contains(llvm19OnlyFlags, name)
	})
}

// profgen22Rows are profgenParityTable's rows llvm-profgen-22 takes, those
// giving flags of LLVM 20-22 given to 22 as they are, then
// profgen22OnlyTable.
func profgen22Rows() []profgenRow {
	var rows []profgenRow
	for _, row := range profgenParityTable {
		if usesLLVM19OnlyFlag(row.args) {
			continue
		}
		if row.since20 {
			row.llvm = nil
		}
		rows = append(rows, row)
	}
	return append(rows, profgen22OnlyTable...)
}

// symtab is a pseudo-probe binary one of whose objects was built without
// -g (testdata/parity/README): its functions are known from .symtab only.
var (
	symtab       = []string{"--binary={symtab.bin}", "--perfscript={symtab.script}"}
	symtabHybrid = []string{"--binary={symtab.bin}", "--perfscript={symtab-hybrid.script}"}
)

// dap is a C++ PIE with virtual calls, its LBR samples and a perf report
// -D trace of its loads from vtables (testdata/parity/README).
var (
	dap       = []string{"--binary={dap.bin}", "--perfscript={dap.script}", "--data-access-perftrace={dap-trace.txt}"}
	dapHybrid = []string{"--binary={dap.bin}", "--perfscript={dap-hybrid.script}", "--data-access-perftrace={dap-trace.txt}"}
)

// profgen22OnlyTable are the rows of flags and behaviours llvm-profgen 19
// lacks.
var profgen22OnlyTable = []profgenRow{
	// --load-function-from-symbol (on by default): the functions .symtab
	// alone knows get their probes' samples and are call targets.
	{name: "symtab functions: text", args: with(symtab, "--format=text")},
	// Probe builds of make testdata: .symtab adds _start and the like to
	// the symbol list; the profiles are unchanged.
	{name: "probe sqlite", args: with([]string{"--binary={data:probe/sqlite/binary}", "--perfscript={data:probe/sqlite/single.script}"}, "--format=text")},
	{name: "probe sqlite, hybrid", args: with([]string{"--binary={data:probe/sqlite/binary}", "--perfscript={data:probe/sqlite/hybrid.script}"}, "--format=text")},
	{name: "probe wordfreq, symbol list", args: with([]string{"--binary={data:probe/wordfreq/binary}", "--perfscript={data:probe/wordfreq/single.script}"}, "--populate-profile-symbol-list"), rendered: true},
	// LLVM 22's missing-dwarf test: split DWARF whose .dwo is gone, an
	// unsymbolized profile; foo, a call target, zero-filled from .symtab.
	{name: "missing-dwarf: --load-function-from-symbol=0", args: []string{"--binary={missing-dwarf.exe}", "--unsymbolized-profile={missing-dwarf.raw}", "--format=text", "--fill-zero-for-all-funcs", "--show-detailed-warning", "--use-offset=0", "--load-function-from-symbol=0", "-o", "{out}"}},
	{name: "missing-dwarf: --load-function-from-symbol=1", args: []string{"--binary={missing-dwarf.exe}", "--unsymbolized-profile={missing-dwarf.raw}", "--format=text", "--fill-zero-for-all-funcs", "--show-detailed-warning", "--use-offset=0", "--load-function-from-symbol=1", "-o", "{out}"}},
	{name: "symtab functions: extbinary, symbol list", args: with(symtab, "--populate-profile-symbol-list"), rendered: true},
	{name: "symtab functions: --show-detailed-warning", args: with(symtab, "--format=text", "--show-detailed-warning")},
	{name: "symtab functions: --load-function-from-symbol=0", args: with(symtab, "--format=text", "--load-function-from-symbol=0")},
	{name: "symtab functions: --use-dwarf-correlation", args: with(symtab, "--format=text", "--use-dwarf-correlation")},
	{name: "symtab functions: --fill-zero-for-all-funcs", args: with(symtab, "--format=text", "--fill-zero-for-all-funcs")},
	// Without symbolization profgen checks the ranges only when asked
	// (README), as in the 19 table.
	{name: "symtab functions: --skip-symbolization", args: with(symtab, "--skip-symbolization", "--show-detailed-warning")},
	{name: "symtab functions: hybrid", args: with(symtabHybrid, "--format=text")},
	{name: "symtab functions: hybrid, flat contexts", args: with(symtabHybrid, "--format=text", "--gen-cs-nested-profile=0", "--csspgo-preinliner=0")},
	{name: "symtab functions: hybrid --load-function-from-symbol=0", args: with(symtabHybrid, "--format=text", "--load-function-from-symbol=0")},
	// --csprof-max-unsymbolized-context-depth (LLVM 20): the address
	// contexts of probe binaries cut before symbolization, to the smaller
	// of it and --csprof-max-context-depth; no effect on line contexts.
	{name: "CS: --csprof-max-unsymbolized-context-depth=0", args: with(csProbe, "--format=text", "--csprof-max-unsymbolized-context-depth=0")},
	{name: "CS: --csprof-max-unsymbolized-context-depth=1, unsymbolized", args: with(recNoMmap, "--skip-symbolization", "--csprof-max-unsymbolized-context-depth=1")},
	{name: "CS: --csprof-max-unsymbolized-context-depth=1, flat", args: with(recNoMmap, "--format=text", "--csprof-max-unsymbolized-context-depth=1", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "CS: --csprof-max-unsymbolized-context-depth=2 --csprof-max-context-depth=1", args: with(recNoMmap, "--format=text", "--csprof-max-unsymbolized-context-depth=2", "--csprof-max-context-depth=1", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "CS: --csprof-max-unsymbolized-context-depth=1 --csprof-max-context-depth=0", args: with(recNoMmap, "--skip-symbolization", "--csprof-max-unsymbolized-context-depth=1", "--csprof-max-context-depth=0")},
	// LLVM 22's context-depth test, its four runs on our recursion input.
	{name: "context-depth: --csprof-max-context-depth=0", args: with(recNoMmap, "--format=text", "--compress-recursion=0", "--profile-summary-hot-count=0", "--csprof-max-context-depth=0", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "context-depth: --csprof-max-unsymbolized-context-depth=2 --skip-symbolization", args: with(recNoMmap, "--format=text", "--compress-recursion=0", "--profile-summary-hot-count=0", "--csprof-max-unsymbolized-context-depth=2", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0", "--skip-symbolization")},
	{name: "context-depth: --csprof-max-unsymbolized-context-depth=2", args: with(recNoMmap, "--format=text", "--compress-recursion=0", "--profile-summary-hot-count=0", "--csprof-max-unsymbolized-context-depth=2", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "context-depth: both depths", args: with(recNoMmap, "--format=text", "--compress-recursion=0", "--profile-summary-hot-count=0", "--csprof-max-unsymbolized-context-depth=2", "--csprof-max-context-depth=0", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "CS: --csprof-max-unsymbolized-context-depth=0, lines (no effect)", args: with(csNoProbe, "--format=text", "--csprof-max-unsymbolized-context-depth=0")},
	// --data-access-perftrace: vtable loads become vtable type counts at
	// their instruction's location (inlined ones in the inlinee), the
	// data addresses placed through the binary's non-executable mappings;
	// other processes count without --pid; extbinary keeps them with
	// --extbinary-write-vtable-type-prof. Refused for probe and CS
	// profiles; hybrid samples with their stacks ignored get none.
	{name: "--data-access-perftrace", args: with(dap, "--format=text")},
	{name: "--data-access-perftrace --pid", args: with(dap, "--format=text", "--pid=1479996")},
	{name: "--data-access-perftrace extbinary drops them", args: with(dap)},
	{name: "--data-access-perftrace --extbinary-write-vtable-type-prof", args: with(dap, "--extbinary-write-vtable-type-prof")},
	{name: "--data-access-perftrace --use-dwarf-correlation --update-total-samples", args: with(dap, "--format=text", "--use-dwarf-correlation", "--update-total-samples")},
	{name: "--data-access-perftrace --skip-symbolization", args: with(dap, "--skip-symbolization")},
	{name: "--data-access-perftrace, hybrid --ignore-stack-samples", args: with(dapHybrid, "--format=text", "--ignore-stack-samples")},
	{name: "--data-access-perftrace, CS", args: with(dapHybrid, "--format=text"), bothFail: true},
	{name: "--data-access-perftrace, unsymbolized CS", args: []string{"--binary={dap.bin}", "--unsymbolized-profile={dap-hybrid.raw}", "--data-access-perftrace={dap-trace.txt}", "--format=text"}, bothFail: true},
	{name: "--data-access-perftrace, probes", args: with(symtab, "--format=text", "--data-access-perftrace={dap-trace.txt}"), bothFail: true},
	{name: "--data-access-perftrace missing", args: with(tb, "--format=text", "--data-access-perftrace=nosuch.txt"), bothFail: true},
	// LLVM's afdo-with-vtable-pie flags on branch stacks none of which is
	// in dap.bin, mapped: the profile holds the vtable loads alone.
	{name: "--data-access-perftrace, branch stacks elsewhere", args: with([]string{"--binary={dap.bin}", "--perfscript={dap-elsewhere.script}", "--data-access-perftrace={dap-trace.txt}"},
		"--format=text", "--pid=1479996", "--ignore-stack-samples", "--use-dwarf-correlation")},
	// Pseudo probes of a PE image (llvm-profgen 19 reads none).
	{name: "COFF, pseudo probes: text", args: with(coffProbe, "--format=text")},
	{name: "COFF, pseudo probes: extbinary", args: with(coffProbe, "--populate-profile-symbol-list"), rendered: true},
	{name: "COFF, pseudo probes: --skip-symbolization", args: with(coffProbe, "--skip-symbolization")},
	listing("{coff-probe.exe}", "--show-pseudo-probe", "--show-source-locations"),
	// --mark-all-context-preinlined: !Attributes: 2 on every profile,
	// inlinees and contexts too, and the profile flagged pre-inlined.
	// Extbinary lists the function metadata in LLVM's hash order (README);
	// the rendered rows need a symbol list (llvm-profdata-22 show
	// --show-prof-sym-list crashes on a profile without one).
	{name: "--mark-all-context-preinlined", args: with(tb, "--format=text", "--mark-all-context-preinlined")},
	{name: "--mark-all-context-preinlined extbinary", args: with(tb, "--mark-all-context-preinlined", "--populate-profile-symbol-list"), rendered: true},
	{name: "--mark-all-context-preinlined, probes", args: with(symtab, "--format=text", "--mark-all-context-preinlined")},
	{name: "--mark-all-context-preinlined --llvm-sample-profile", args: []string{"--binary={drv:t.bin}", "--llvm-sample-profile={gen.sample.txt}", "--format=text", "--mark-all-context-preinlined", "-o", "{out}"}},
	{name: "--mark-all-context-preinlined --unsymbolized-profile", args: []string{"--binary={drv:t.bin}", "--unsymbolized-profile={drv:t.llvm19.raw}", "--format=text", "--mark-all-context-preinlined", "-o", "{out}"}},
	{name: "CS: --mark-all-context-preinlined", args: with(csProbe, "--format=text", "--mark-all-context-preinlined")},
	{name: "CS: --mark-all-context-preinlined --csspgo-preinliner=0", args: with(csProbe, "--format=text", "--mark-all-context-preinlined", "--csspgo-preinliner=0")},
	{name: "CS: --mark-all-context-preinlined --csspgo-preinliner=0, lines", args: with(csNoProbe, "--format=text", "--mark-all-context-preinlined", "--csspgo-preinliner=0")},
	{name: "CS: --mark-all-context-preinlined, flat", args: with(csNoProbe, "--format=text", "--mark-all-context-preinlined", "--csspgo-preinliner=0", "--gen-cs-nested-profile=0")},
	{name: "CS: --mark-all-context-preinlined extbinary", args: with(csProbe, "--mark-all-context-preinlined", "--csspgo-preinliner=0", "--populate-profile-symbol-list"), rendered: true},
	{name: "CS: --mark-all-context-preinlined --llvm-sample-profile", args: []string{"--binary={cs-probe.bin}", "--llvm-sample-profile={cs-flat-probe.sample.txt}", "--format=text", "--mark-all-context-preinlined", "--csspgo-preinliner=0", "-o", "{out}"}},
}

func TestParityWithLLVMProfgen22(t *testing.T) {
	testutil.Tool(t, "llvm-profgen-22")
	pass, skip, rows := 0, 0, profgen22Rows()
	for _, row := range rows {
		ok := t.Run(row.name, func(t *testing.T) {
			defer func() {
				if t.Skipped() {
					skip++
				}
			}()
			checkProfgenParity(t, "llvm-profgen-22", row)
		})
		if ok {
			pass++
		}
	}
	t.Logf("llvm-profgen-22 parity table: %d of %d rows equal (%d skipped: no test data)", pass-skip, len(rows)-skip, skip)
}
