package main

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// Inputs that only clang-22 and its runtime make, built and run once per
// test run as LLVM 22's compiler-rt tests make them, with programs of our
// own: {built:NAME} is a binary or raw of builtPrograms.
//   - Raws whose records are in the binary (-mllvm -profile-correlate=binary
//     or =debug-info: instrprof-debug-info-correlate*.c,
//     instrprof-binary-correlate*.c, instrprof-mcdc-correlation.c);
//     {built:dir} is a directory of those binaries by build id
//     (DIR/.build-id/xx/rest.debug), {built:srv} a debuginfod server's
//     layout (SRV/buildid/ID/debuginfo) read through a file:// URL.
//   - Temporal profiles with single-byte counters (instrprof-timestamp.c:
//     -pgo-temporal-instrumentation -pgo-block-coverage).

var correlationRows = []parityRow{
	{name: "merge --debug-info (DWARF 5)", args: []string{"merge", "-o", "{out}", "--debug-info={built:dbg}", "{built:dbg.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info (DWARF 4)", args: []string{"merge", "-o", "{out}", "--debug-info={built:d4}", "{built:d4.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, entry coverage", args: []string{"merge", "-o", "{out}", "--debug-info={built:cov}", "{built:cov.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, two raws, to text", args: []string{"merge", "--text", "-o", "{out}", "--debug-info", "{built:dbg}", "{built:dbg.profraw}", "{built:dbg-2.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, line tables only: warnings", args: []string{"merge", "-o", "{out}", "--debug-info={built:glt}", "--max-debug-info-correlation-warnings=2", "{built:glt.profraw}"}, compare: sameWarnings, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, no warning limit", args: []string{"merge", "-o", "{out}", "--debug-info={built:glt}", "--max-debug-info-correlation-warnings=0", "{built:glt.profraw}"}, compare: sameWarnings, tool: "llvm-profdata-22"},
	{name: "merge --binary-file, raw of the stripped binary", args: []string{"merge", "-o", "{out}", "--binary-file={built:bin}", "{built:bin-stripped.profraw}", "{built:bin.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --binary-file, MC/DC", args: []string{"merge", "-o", "{out}", "--binary-file={built:mcdc-bin}", "{built:mcdc-bin.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debug-info, MC/DC", args: []string{"merge", "-o", "{out}", "--debug-info={built:mcdc-dbg}", "{built:mcdc-dbg.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --correlate=debug-info --debug-file-directory", args: []string{"merge", "-o", "{out}", "--correlate=debug-info", "--debug-file-directory", "{built:dir}", "{built:dbg.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --correlate=binary --debug-file-directory", args: []string{"merge", "-o", "{out}", "--correlate=binary", "--debug-file-directory={built:dir}", "{built:bin-stripped.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge --debuginfod --correlate=debug-info", args: []string{"merge", "-o", "{out}", "--debuginfod", "--correlate=debug-info", "{built:dbg.profraw}", "{built:dbg-2.profraw}"},
		env: debuginfodEnv, tool: "llvm-profdata-22"},
	{name: "merge --debuginfod --correlate=binary", args: []string{"merge", "-o", "{out}", "--debuginfod", "--correlate=binary", "{built:bin-stripped.profraw}"},
		env: debuginfodEnv, tool: "llvm-profdata-22"},
	{name: "--correlate without a directory or --debuginfod", args: []string{"merge", "-o", "{out}", "--correlate=binary", "{built:bin.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debug-file-directory without --correlate", args: []string{"merge", "-o", "{out}", "--debug-file-directory={built:dir}", "{built:bin.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debuginfod without --correlate", args: []string{"merge", "-o", "{out}", "--debuginfod", "{built:bin.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--binary-file with --debug-file-directory", args: []string{"merge", "-o", "{out}", "--binary-file={built:bin}", "--correlate=binary", "--debug-file-directory={built:dir}", "{built:bin.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debug-info with --binary-file", args: []string{"merge", "-o", "{out}", "--debug-info={built:dbg}", "--binary-file={built:bin}", "{built:dbg.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--correlate: build id missing from the directory", args: []string{"merge", "-o", "{out}", "--correlate=debug-info", "--debug-file-directory={built:empty}", "{built:dbg.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debug-info with a raw of its own records", args: []string{"merge", "-o", "{out}", "--debug-info={built:dbg}", "{built:normal.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "--debug-info of a binary without probes", args: []string{"merge", "-o", "{out}", "--debug-info={built:normal}", "{built:dbg.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "show --debug-info", args: []string{"show", "--debug-info={built:dbg}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info, a profile given", args: []string{"show", "--debug-info={built:d4}", "--all-functions", "{built:d4.profraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info --show-format=yaml", args: []string{"show", "--debug-info={built:dbg}", "--show-format=yaml"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info --show-format=yaml (DWARF 4, coverage)", args: []string{"show", "--debug-info={built:cov}", "--show-format=yaml"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info --detailed-summary --show-prof-sym-list", args: []string{"show", "--debug-info={built:glt}", "--detailed-summary", "--show-prof-sym-list"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --debug-info --show-format=json", args: []string{"show", "--debug-info={built:dbg}", "--show-format=json"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "show --debug-info of a binary without probes", args: []string{"show", "--debug-info={built:normal}"}, compare: bothFail, tool: "llvm-profdata-22"},

	// Temporal profiles with single-byte counters: an 8-byte timestamp,
	// then a byte a block.
	{name: "temporal single-byte raws, weighted", args: []string{"merge", "-o", "{out}", "{built:ts-byte.profraw}", "--weighted-input=5,{built:ts-byte-2.profraw}"}, tool: "llvm-profdata-22"},
	{name: "temporal single-byte raws to text", args: []string{"merge", "--text", "-o", "{out}", "{built:ts-byte-2.profraw}", "{built:ts-byte.profraw}"}, tool: "llvm-profdata-22"},
	// Traces in input order, as llvm -j=1 (its threads interleave them);
	// records of one name and two hashes (8-byte and single-byte builds)
	// in hash order in the file, where llvm keeps them in reading order:
	// the same profile, compared as text.
	{name: "temporal single-byte and 8-byte raws", args: []string{"merge", "-o", "{out}", "{built:ts-byte.profraw}", "{built:ts.profraw}", "{built:ts-2.profraw}"},
		llvm: []string{"merge", "-j=1", "-o", "{out}", "{built:ts-byte.profraw}", "{built:ts.profraw}", "{built:ts-2.profraw}"}, compare: sameText, tool: "llvm-profdata-22"},
	{name: "show temporal single-byte raw", args: []string{"show", "--temporal-profile-traces", "--all-functions", "--counts", "{built:ts-byte-2.profraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "order of a temporal single-byte raw", args: []string{"order", "{built:ts-byte.profraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	// MemProf raws (llvm/test/tools/llvm-profdata/memprof-*.test, their
	// inputs made by Inputs/update_memprof_inputs.sh with programs of our
	// own): shown symbolized against their binary.
	{name: "show --memory raw", args: []string{"show", "--memory", "--profiled-binary={built:mp-basic}", "{built:mp-basic.memprofraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --memory raw, inlined allocation", args: []string{"show", "--memory", "--profiled-binary", "{built:mp-inline}", "{built:mp-inline.memprofraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --memory raw of two dumps", args: []string{"show", "--memory", "--profiled-binary={built:mp-multi}", "{built:mp-multi.memprofraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --memory raw of a PIE", args: []string{"show", "--memory", "--profiled-binary={built:mp-pic}", "{built:mp-pic.memprofraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --memory raw with access histograms", args: []string{"show", "--memory", "--profiled-binary={built:mp-hist}", "{built:mp-hist.memprofraw}"}, compare: sameMemStdout, tool: "llvm-profdata-22"},
	{name: "show --memory raw without --profiled-binary", args: []string{"show", "--memory", "{built:mp-basic.memprofraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "show --memory raw, another binary", args: []string{"show", "--memory", "--profiled-binary={built:mp-inline}", "{built:mp-basic.memprofraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	// show --memory of indexed profiles with a MemProf section: the
	// indexed inputs are llvm-profdata-22's merges ({built:mp-*.profdata},
	// MemProf versions 2 to 4), so both tools read the same bytes.
	{name: "show --memory indexed, MemProf version 2", args: []string{"show", "--memory", "{built:mp-inline-v2.profdata}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --memory indexed, MemProf version 3, full schema", args: []string{"show", "--memory", "{built:mp-hist-v3f.profdata}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --memory indexed, MemProf version 4", args: []string{"show", "--memory", "{built:mp-multi-v4.profdata}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show --memory indexed, instrumentation and MemProf", args: []string{"show", "--memory", "{built:mp-mixed.profdata}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "show of indexed instrumentation and MemProf", args: []string{"show", "--all-functions", "--counts", "{built:mp-mixed.profdata}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "merge of indexed instrumentation and MemProf: empty MemProf section", args: []string{"merge", "-o", "{out}", "{built:mp-mixed.profdata}"}, tool: "llvm-profdata-22"},
	{name: "merge of indexed MemProf, --memprof-version=2", args: []string{"merge", "--memprof-version=2", "-o", "{out}", "{built:mp-multi-v4.profdata}"}, tool: "llvm-profdata-22"},
	{name: "merge of indexed MemProf and a MemProf raw", args: []string{"merge", "--memprof-version=4", "--profiled-binary={built:mp-basic}", "-o", "{out}", "{built:mp-mixed.profdata}", "{built:mp-basic.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge YAML MemProf", args: []string{"merge", "-o", "{out}", "{built:mp.yaml}"}, tool: "llvm-profdata-22"},
	{name: "merge YAML MemProf, version 4", args: []string{"merge", "--memprof-version=4", "-o", "{out}", "{built:mp.yaml}"}, tool: "llvm-profdata-22"},
	{name: "merge YAML MemProf, version 2, full schema", args: []string{"merge", "--memprof-version=2", "--memprof-full-schema", "-o", "{out}", "{built:mp.yaml}"}, tool: "llvm-profdata-22"},
	{name: "merge show --memory's YAML, full schema", args: []string{"merge", "--memprof-version=4", "--memprof-full-schema", "-o", "{out}", "{built:mp-hist.yaml}"}, tool: "llvm-profdata-22"},
	{name: "merge YAML MemProf with instrumentation", args: []string{"merge", "-o", "{out}", "{built:normal.profraw}", "{built:mp.yaml}"}, tool: "llvm-profdata-22"},
	{name: "show --memory of an instrumentation raw", args: []string{"show", "--memory", "{built:normal.profraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	// MemProf raws merged into indexed profiles: llvm's bytes, for every
	// MemProf version and schema (the full schema of a raw with access
	// histograms holds the address of llvm's heap copy of each: not
	// comparable).
	{name: "merge memprof raw", args: []string{"merge", "-o", "{out}", "--profiled-binary={built:mp-basic}", "{built:mp-basic.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw, version 2", args: []string{"merge", "-o", "{out}", "--memprof-version=2", "--profiled-binary={built:mp-inline}", "{built:mp-inline.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw, version 3, full schema", args: []string{"merge", "-o", "{out}", "--memprof-version=3", "--memprof-full-schema", "--profiled-binary={built:mp-inline}", "{built:mp-inline.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw, version 4", args: []string{"merge", "-o", "{out}", "--memprof-version=4", "--profiled-binary={built:mp-multi}", "{built:mp-multi.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw, version 4, full schema (PIE)", args: []string{"merge", "-o", "{out}", "--memprof-version=4", "--memprof-full-schema", "--profiled-binary={built:mp-pic}", "{built:mp-pic.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw with access histograms", args: []string{"merge", "-o", "{out}", "--memprof-version=4", "--profiled-binary={built:mp-hist}", "{built:mp-hist.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge instrumentation and memprof raws", args: []string{"merge", "-o", "{out}", "--profiled-binary={built:mp-basic}", "{built:normal.profraw}", "{built:mp-basic.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof and instrumentation raws to text", args: []string{"merge", "--text", "-o", "{out}", "--profiled-binary={built:mp-basic}", "{built:mp-basic.memprofraw}", "{built:normal.profraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw, random hotness", args: []string{"merge", "-o", "{out}", "--memprof-random-hotness", "--memprof-random-hotness-seed=77", "--profiled-binary={built:mp-hist}", "{built:mp-hist.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw, random hotness, version 4", args: []string{"merge", "-o", "{out}", "--memprof-version=4", "--memprof-random-hotness", "--memprof-random-hotness-seed=5", "--profiled-binary={built:mp-inline}", "{built:mp-inline.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw of many contexts, version 2", args: []string{"merge", "-o", "{out}", "--memprof-version=2", "--profiled-binary={built:mp-big}", "{built:mp-big.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "merge memprof raw of many contexts, version 4", args: []string{"merge", "-o", "{out}", "--memprof-version=4", "--profiled-binary={built:mp-big}", "{built:mp-big.memprofraw}"}, tool: "llvm-profdata-22"},
	{name: "show --memory raw of many contexts", args: []string{"show", "--memory", "--profiled-binary={built:mp-big}", "{built:mp-big.memprofraw}"}, compare: sameStdout, tool: "llvm-profdata-22"},
	{name: "merge memprof raw, version 5", args: []string{"merge", "-o", "{out}", "--memprof-version=5", "--profiled-binary={built:mp-basic}", "{built:mp-basic.memprofraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "merge memprof raw without --profiled-binary", args: []string{"merge", "-o", "{out}", "{built:mp-basic.memprofraw}"}, compare: bothFail, tool: "llvm-profdata-22"},
	{name: "temporal single-byte raws, trace length 1", args: []string{"merge", "--temporal-profile-max-trace-length=1", "--text", "-o", "{out}", "{built:ts-byte.profraw}", "{built:ts-byte-2.profraw}"}, tool: "llvm-profdata-22"},
}

// histogramAddrs matches the address of a MIB's access histogram in
// show --memory's text.
var histogramAddrs = regexp.MustCompile(`(?m)^( +AccessHistogram: )\d+$`)

// debuginfodEnv points the debuginfod client at {built:srv}, with a cache
// of each tool's own.
var debuginfodEnv = []string{"DEBUGINFOD_URLS=file://{built:srv}", "DEBUGINFOD_CACHE_PATH={out}.cache"}

// builtProgram is one build of the correlation program and how its raws are
// made.
type builtProgram struct {
	flags   []string
	buildID string // -Wl,--build-id=0x…; "" for the linker's
	runs    int    // raws NAME.profraw, NAME-2.profraw, …
	src     string // corrMain (default), corrMCDC or timestampProgram
	// args are the program's argument in each run (none when shorter).
	args []string
}

var builtPrograms = map[string]builtProgram{
	"normal":   {flags: []string{"-fprofile-generate", "-mllvm", "-disable-vp=true"}, runs: 1},
	"dbg":      {flags: []string{"-fprofile-generate", "-g", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-disable-vp=true"}, buildID: "12345678", runs: 2},
	"d4":       {flags: []string{"-fprofile-generate", "-g", "-gdwarf-4", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-disable-vp=true"}, runs: 1},
	"cov":      {flags: []string{"-fprofile-generate", "-g", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-pgo-function-entry-coverage", "-mllvm", "-disable-vp=true"}, runs: 1},
	"glt":      {flags: []string{"-fprofile-generate", "-gline-tables-only", "-mllvm", "-profile-correlate=debug-info", "-mllvm", "-disable-vp=true"}, runs: 1},
	"bin":      {flags: []string{"-fprofile-instr-generate", "-fcoverage-mapping", "-mllvm", "-profile-correlate=binary"}, buildID: "12345679", runs: 1},
	"mcdc-bin": {flags: []string{"-fprofile-instr-generate", "-fcoverage-mapping", "-fcoverage-mcdc", "-mllvm", "-profile-correlate=binary"}, runs: 1, src: corrMCDC},
	"mcdc-dbg": {flags: []string{"-fprofile-instr-generate", "-fcoverage-mapping", "-fcoverage-mcdc", "-g", "-mllvm", "-profile-correlate=debug-info"}, runs: 1, src: corrMCDC},
	"ts-byte":  {flags: []string{"-fprofile-generate", "-mllvm", "-pgo-temporal-instrumentation", "-mllvm", "-pgo-block-coverage"}, runs: 2, args: []string{"n", "y"}, src: timestampProgram},
	"ts":       {flags: []string{"-fprofile-generate", "-mllvm", "-pgo-temporal-instrumentation"}, runs: 2, args: []string{"n", "y"}, src: timestampProgram},
}

// timestampProgram calls its functions in an order its argument changes.
const timestampProgram = `
void a(void) {}
void b(void) {}
void unused(void) { __builtin_trap(); }
void c(void) {}
int main(int argc, const char *argv[]) {
  if (argc != 2)
    unused();
  if (*argv[1] == 'y') { a(); c(); b(); } else { a(); b(); b(); c(); }
  return 0;
}
`

const corrMain = `
int foo(int);
static int helper(int x) { return x % 3 ? x : -x; }
int bar(int x) { return x > 3 ? x * 2 : x + 1; }
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++) s += foo(i) + bar(i) + helper(i);
  return s == 12345;
}
int foo(int x) { if (x & 1) return -x; return x / 2; }
`

const corrMCDC = `
int test(int a, int b, int c) { if ((a && b) || c) return 1; return 0; }
int main(void) { int s = 0; for (int i = 0; i < 8; i++) s += test(i & 1, i & 2, i & 4); return s == 100; }
`

var (
	builtOnce sync.Once
	builtDir  string
	builtErr  error
)

// builtPath is the path of {built:NAME}, building everything on first use.
func builtPath(t *testing.T, name string) string {
	testutil.Tools(t, "clang-22", "llvm-strip-22")
	builtOnce.Do(func() { builtDir, builtErr = buildPrograms() })
	if builtErr != nil {
		t.Fatal(builtErr)
	}
	return filepath.Join(builtDir, name)
}

func buildPrograms() (string, error) {
	dir, err := os.MkdirTemp("", "corr")
	if err != nil {
		return "", err
	}
	for name, b := range builtPrograms {
		if err := b.build(dir, name); err != nil {
			return "", err
		}
	}
	for name, m := range memprofPrograms {
		if err := m.build(dir, name); err != nil {
			return "", err
		}
	}
	if err := runAll(dir, memprofIndexed); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "mp.yaml"), []byte(memprofYAML), 0o644); err != nil {
		return "", err
	}
	steps := [][]string{
		{"llvm-strip-22", "bin", "-o", "bin-stripped"},
		{"env", "LLVM_PROFILE_FILE=bin-stripped.profraw", "./bin-stripped"},
		{"mkdir", "-p", "dir/.build-id/12", "srv/buildid/12345678", "srv/buildid/12345679", "empty"},
		{"cp", "dbg", "dir/.build-id/12/345678.debug"},
		{"cp", "bin", "dir/.build-id/12/345679.debug"},
		{"cp", "dbg", "srv/buildid/12345678/debuginfo"},
		{"cp", "bin", "srv/buildid/12345679/debuginfo"},
	}
	return dir, runAll(dir, steps)
}

// build compiles and runs one build in dir.
func (b builtProgram) build(dir, name string) error {
	src := name + ".c"
	if err := os.WriteFile(filepath.Join(dir, src), []byte(cmp.Or(b.src, corrMain)), 0o644); err != nil {
		return err
	}
	cc := append([]string{"clang-22", "-o", name, src}, b.flags...)
	if b.buildID != "" {
		cc = append(cc, "-Wl,--build-id=0x"+b.buildID)
	}
	steps := [][]string{cc}
	for i := 1; i <= b.runs; i++ {
		raw := name + ".profraw"
		if i > 1 {
			raw = name + "-" + string(rune('0'+i)) + ".profraw"
		}
		run := []string{"env", "LLVM_PROFILE_FILE=" + raw, "./" + name}
		if i <= len(b.args) {
			run = append(run, b.args[i-1])
		}
		steps = append(steps, run)
	}
	return runAll(dir, steps)
}

// memprofProgram is a program built with -fmemory-profile and run once,
// its raw MemProf profile written to NAME.memprofraw, as LLVM's
// update_memprof_inputs.sh makes its inputs (without lld: one executable
// segment all the same).
type memprofProgram struct {
	src, lang string
	flags     []string
}

var memprofFlags = []string{"-gmlt", "-fdebug-info-for-profiling", "-fmemory-profile", "-mno-omit-leaf-frame-pointer",
	"-fno-omit-frame-pointer", "-fno-optimize-sibling-calls", "-m64", "-Wl,--build-id"}

var memprofPrograms = map[string]memprofProgram{
	"mp-basic":  {src: memprofBasic, flags: []string{"-no-pie"}},
	"mp-pic":    {src: memprofBasic, flags: []string{"-pie", "-fPIE"}},
	"mp-inline": {src: memprofInline, flags: []string{"-no-pie"}},
	"mp-multi":  {src: memprofMulti, flags: []string{"-no-pie"}},
	"mp-big":    {src: memprofBig(40), flags: []string{"-no-pie"}},
	"mp-hist": {src: memprofHistogram, lang: "c++", flags: []string{"-no-pie", "-mllvm", "-memprof-use-callbacks=true",
		"-mllvm", "-memprof-histogram"}},
}

func (m memprofProgram) build(dir, name string) error {
	src := name + ".c"
	if err := os.WriteFile(filepath.Join(dir, src), []byte(m.src), 0o644); err != nil {
		return err
	}
	cc := append([]string{"clang-22", "-x", cmp.Or(m.lang, "c"), src, "-x", "none", "-o", name}, slices.Concat(memprofFlags, m.flags)...)
	if m.lang == "c++" {
		cc = append(cc, "-lstdc++")
	}
	run := []string{"sh", "-c", "MEMPROF_OPTIONS=log_path=stdout ./" + name + " > " + name + ".memprofraw"}
	return runAll(dir, [][]string{cc, run})
}

// memprofIndexed are llvm-profdata-22's merges of the MemProf raws, the
// indexed inputs of the show --memory rows.
var memprofIndexed = [][]string{
	{"llvm-profdata-22", "merge", "--memprof-version=2", "--profiled-binary=mp-inline", "mp-inline.memprofraw", "-o", "mp-inline-v2.profdata"},
	{"llvm-profdata-22", "merge", "--memprof-version=3", "--memprof-full-schema", "--profiled-binary=mp-hist", "mp-hist.memprofraw", "-o", "mp-hist-v3f.profdata"},
	{"llvm-profdata-22", "merge", "--memprof-version=4", "--profiled-binary=mp-multi", "mp-multi.memprofraw", "-o", "mp-multi-v4.profdata"},
	{"llvm-profdata-22", "merge", "--profiled-binary=mp-basic", "normal.profraw", "mp-basic.memprofraw", "-o", "mp-mixed.profdata"},
	{"sh", "-c", "llvm-profdata-22 show --memory mp-hist-v3f.profdata > mp-hist.yaml"},
}

// memprofYAML is a YAML MemProf profile as written by hand: GUIDs in hex
// and as function names, callee GUIDs, a GUID repeated.
const memprofYAML = `---
HeapProfileRecords:
  - GUID: 0x1
    AllocSites:
      - Callstack:
          - { Function: 0x2, LineOffset: 1, Column: 3, IsInlineFrame: true }
          - { Function: main, LineOffset: 2, Column: 4, IsInlineFrame: false }
        MemInfoBlock:
          AllocCount: 2
          TotalSize: 30
          TotalLifetime: 500000
          TotalLifetimeAccessDensity: 1
    CallSites:
      - Frames:
          - { Function: 0x2, LineOffset: 1, Column: 3, IsInlineFrame: false }
        CalleeGuids: [ 0x3, foo ]
  - GUID: foo
    CallSites:
      - Frames:
          - { Function: foo, LineOffset: 9, Column: 3, IsInlineFrame: true }
  - GUID: 0x1
    CallSites:
      - Frames:
          - { Function: 0x7, LineOffset: 9, Column: 3, IsInlineFrame: true }
...
`

// memprofBig is a program of n functions that each allocate and call two
// later ones, a few levels deep: dozens of allocation contexts sharing
// frames, whose order in llvm's tables follows its hash maps.
func memprofBig(n int) string {
	var b strings.Builder
	b.WriteString("#include <stdlib.h>\n#include <string.h>\nvolatile long sink;\n")
	for i := range n {
		fmt.Fprintf(&b, "__attribute__((noinline)) void f%d(int d);\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "__attribute__((noinline)) void f%d(int d) {\n  char *p = malloc(%d); memset(p, 0, %d); sink += (long)p; free(p);\n", i, i+1, i+1)
		for _, j := range []int{i + 1, i + 3} {
			if j < n {
				fmt.Fprintf(&b, "  if (d < 4) f%d(d + 1);\n", j)
			}
		}
		b.WriteString("}\n")
	}
	b.WriteString("int main(void) { for (int i = 0; i < 3; i++) { f0(0); f1(1); } return 0; }\n")
	return b.String()
}

const memprofBasic = `
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  char *x = (char *)malloc(10);
  memset(x, 0, 10);
  free(x);
  x = (char *)malloc(10);
  memset(x, 0, 10);
  free(x);
  return 0;
}
`

const memprofInline = `
#include <stdlib.h>
#include <string.h>
__attribute__((always_inline)) void qux(int x) {
  char *ptr = (char *)malloc(x);
  memset(ptr, 0, x);
  free(ptr);
}
__attribute__((noinline)) void foo(int x) { qux(x); }
__attribute__((noinline)) void bar(int x) { foo(x); }
int main(int argc, char **argv) {
  bar(argc);
  return 0;
}
`

const memprofMulti = `
#include <sanitizer/memprof_interface.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  char *x = (char *)malloc(10);
  memset(x, 0, 10);
  free(x);
  __memprof_profile_dump();
  x = (char *)malloc(10);
  memset(x, 0, 10);
  free(x);
  return 0;
}
`

const memprofHistogram = `
struct A { long a, b, c, d, e, f, g, h; A() {} };
void foo() { long acc = 0; A *a = new A(); acc += a->a; acc += a->b; acc += a->h; delete a; }
int main(int argc, char **argv) {
  long acc = 0;
  A *b = new A();
  for (int i = 0; i < 5000; i++) acc += b->a;
  acc += b->c;
  delete b;
  for (int i = 0; i < 21; ++i) foo();
  return (int)acc & 1;
}
`

// runAll runs commands in dir; a program's exit status is its own (the
// programs return 0).
func runAll(dir string, steps [][]string) error {
	for _, s := range steps {
		cmd := exec.Command(s[0], s[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %w\n%s", strings.Join(s, " "), err, out)
		}
	}
	return nil
}
