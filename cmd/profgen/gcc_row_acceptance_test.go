package main

import (
	"bytes"
	"cmp"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/testutil"
)

// Issue 27 (the conversion row): profgen --format=gcc, from a recording
// straight to the profile gcc-12 -fauto-profile reads. The gcc-12 builds
// of SQLite and their lbrgen traces are scripts/testdata.d/22-lbr-gcc.sh's
// (lbr/sqlite-gcc, lbr/sqlite-gcc-cet with -fcf-protection); the call
// stacks are recorded here with perf record -e cpu-clock -g.

// TestGCCRowAccepted: gcc-12 compiles sqlite3.c (through the IPA passes:
// throughIPA) with the flags of the
// profiled build and profgen's profile, from LBR and from call stacks,
// with no diagnostic of its own (profileDiagnostics); -fdump-ipa-afdo
// shows the profile's hottest functions with its counts (checkHottest).
func TestGCCRowAccepted(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles SQLite six times, through the IPA passes")
	}
	testutil.Tool(t, "gcc-12")
	src := filepath.Join(testutil.DataDir(t, "lbr", ".cache", "sqlite3"), "sqlite3.c")
	for _, prog := range []string{"sqlite-gcc", "sqlite-gcc-cet"} {
		dir := testutil.DataDir(t, "lbr", prog)
		bin, flags := filepath.Join(dir, "binary"), readLines(t, filepath.Join(dir, "cflags"))
		flags = append(flags, throughIPA()...)
		inputs := map[string]func(t *testing.T) []string{
			"LBR":         func(*testing.T) []string { return []string{"--perfscript", filepath.Join(dir, "single.script")} },
			"call stacks": func(t *testing.T) []string { return []string{"--perfdata", recordStacks(t, bin, "20000")} }, // 0.8 s, ~16000 samples
		}
		var baseline *string // compiled by the first subtest run
		for _, input := range []string{"LBR", "call stacks"} {
			t.Run(prog+"/"+input, func(t *testing.T) {
				if baseline == nil {
					diag, _ := compileWithProfile(t, src, flags, emptyGCCProfile(t))
					baseline = &diag
				}
				afdo := filepath.Join(t.TempDir(), "sqlite.afdo")
				profgen(t, append(inputs[input](t), "--binary", bin, "--format=gcc", "-o", afdo, "-q")...)
				diag, dump := compileWithProfile(t, src, flags, afdo)
				if dump == "" {
					t.Fatalf("gcc-12 failed:\n%s", diag)
				}
				if extra := profileDiagnostics(diag, *baseline); len(extra) > 0 {
					t.Fatalf("gcc-12 said, with the profile only:\n%s", strings.Join(extra, "\n"))
				}
				checkHottest(t, afdo, dump, 20)
			})
		}
	}
}

// throughIPA are the flags that stop gcc-12 after the passes that read
// and apply the profile: with -flto -fno-fat-lto-objects, -c writes the
// IPA summary and no code. On sqlite3.c (sqlite-gcc's flags) that takes
// 15 s instead of 3 min 11 s, and the -fdump-ipa-afdo dump is the full
// compile's (the same 941,000 lines but for decl uids and indirect-call
// target hashes). What the later passes do with the profile is what
// `make pgo-eval` builds and measures; PROFGEN_GCC_FULL_COMPILE=1 compiles
// here in full.
func throughIPA() []string {
	if os.Getenv("PROFGEN_GCC_FULL_COMPILE") != "" {
		return nil
	}
	return []string{"-flto", "-fno-fat-lto-objects"}
}

// emptyGCCProfile is a GCC profile of no function, the baseline: what
// gcc-12 says with -fauto-profile whatever the profile (the optimizations
// it turns on warn of their own: -Wstringop-overflow in sqlite3.c's
// geopolyFuncParam).
func emptyGCCProfile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty.afdo")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := sampleprof.WriteGCC(f, sampleprof.NewProfile(), sampleprof.GCCOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

// gccOffsetWarning is what gcc-12 warns of a statement whose line is 65536
// or more after the function it pairs it with (auto-profile.cc,
// get_combined_location): in sqlite3.c, the statements of
// sqlite3_sourceid (line 269393) inlined through sqlite3ReportError (line
// 191175) into every function with SQLITE_CORRUPT_BKPT. gcc-12 pairs
// lines and functions itself, so any profile of those functions gets it
// (one of sqlite3VdbeExec alone, with one count, does).
const gccOffsetWarning = "warning: offset exceeds 16 bytes [-Woverflow]"

// profileDiagnostics are the warnings and errors of diag that baseline
// (gcc's diagnostics with the empty profile) does not have, but for
// gccOffsetWarning; by position and message.
func profileDiagnostics(diag, baseline string) []string {
	seen := map[string]bool{}
	for _, d := range gccDiagnostics(baseline) {
		seen[d] = true
	}
	var extra []string
	for _, d := range gccDiagnostics(diag) {
		if !seen[d] && !strings.HasSuffix(d, gccOffsetWarning) {
			extra = append(extra, d)
		}
	}
	return extra
}

var gccDiagnostic = regexp.MustCompile(`(?m)^.*\b(warning|error): .*$`)

// gccDiagnostics are gcc's warning and error lines (position and message).
func gccDiagnostics(out string) []string {
	return gccDiagnostic.FindAllString(out, -1)
}

// TestGCCRowColdsplitAccepted: the same, quick, on coldsplit.c (gcc-12
// -O2 -g -fcf-protection, a cold part far from its function; built by
// testdata/programs/build.sh): gcc-12 reads the profiles of its LBR trace
// and of its call stacks without a word and annotates every function
// with them (checkAnnotated).
func TestGCCRowColdsplitAccepted(t *testing.T) {
	testutil.Tool(t, "gcc-12")
	const src, bin = "../../testdata/programs/coldsplit.c", "../../testdata/programs/bin/coldsplit-gcc"
	inputs := map[string]func(t *testing.T) []string{
		"LBR": func(t *testing.T) []string { // the trace's binary is a copy of bin
			dir := testutil.DataDir(t, "lbr", "coldsplit-gcc")
			return []string{"--perfscript", filepath.Join(dir, "single.script"), "--binary", filepath.Join(dir, "binary")}
		},
		"call stacks": func(t *testing.T) []string {
			return []string{"--perfdata", recordStacks(t, bin, "30000000"), "--binary", bin}
		},
	}
	for _, input := range []string{"LBR", "call stacks"} {
		t.Run(input, func(t *testing.T) {
			afdo := filepath.Join(t.TempDir(), "coldsplit.afdo")
			profgen(t, append(inputs[input](t), "--format=gcc", "-o", afdo, "-q")...)
			abs, err := filepath.Abs(src)
			if err != nil {
				t.Fatal(err)
			}
			diag, dump := compileWithProfile(t, abs, []string{"-O2", "-g", "-Wall", "-fcf-protection"}, afdo)
			if diag != "" {
				t.Fatalf("gcc-12 said:\n%s", diag)
			}
			checkAnnotated(t, afdo, dump)
		})
	}
}

// TestGCCRowNeverRunBranch: gcc-12 -O2 vectorizes neverrun.c's loop
// around a branch that never runs (testdata/programs, its exact LBR trace
// committed: record-lbr.sh neverrun-gcc 10 1000). With the branch's count written as 0,
// gcc-12 divides by it in the vect pass ("internal compiler error:
// Floating point exception", docs/gcc.md); --format=gcc writes the zero
// counts of hot functions as 1 and gcc-12 compiles it without a word.
func TestGCCRowNeverRunBranch(t *testing.T) {
	testutil.Tool(t, "gcc-12")
	const dir = "../../testdata/programs"
	src, err := filepath.Abs(filepath.Join(dir, "neverrun.c"))
	if err != nil {
		t.Fatal(err)
	}
	input := []string{"--perfscript", filepath.Join(dir, "neverrun.lbr.script"), "--binary", filepath.Join(dir, "bin", "neverrun-gcc"), "--format=gcc", "-q"}
	flags := []string{"-O2", "-g", "-Wall"}
	afdo := filepath.Join(t.TempDir(), "neverrun.afdo")
	profgen(t, append(input, "-o", afdo)...)
	diag, dump := compileWithProfile(t, src, flags, afdo)
	if diag != "" || dump == "" {
		t.Fatalf("gcc-12 said:\n%s", diag)
	}
	checkAnnotated(t, afdo, dump)
	zeros := filepath.Join(t.TempDir(), "zeros.afdo")
	profgen(t, append(input, "--gcc-zeros-as-one=false", "-o", zeros)...)
	if diag, dump := compileWithProfile(t, src, flags, zeros); dump != "" || !strings.Contains(diag, "Floating point exception") {
		t.Logf("this gcc-12 compiles neverrun.c with the zero count (no longer the crash of docs/gcc.md):\n%s", diag)
	}
}

// TestGCCRowAnonymousNamespace: anonns.cc (testdata/programs, g++-12 -O2
// -g; its exact LBR trace committed: record-lbr.sh anonns-gcc 2000) declares its
// classes in an anonymous namespace, for which gcc-12 writes no
// DW_AT_linkage_name. The GCC profile names each eval method by its
// mangled name (its ELF symbol's), out of line, as a call target and
// inlined (mix, into main through run), as GCC looks them up; no
// function is "eval". gcc-12 compiles anonns.cc with it without a word,
// the hottest functions' counts are block counts of the afdo dump, and
// it turns the virtual calls in Bin<Mul>::eval into direct ones ("eval"
// as a call target named no function: it did not).
func TestGCCRowAnonymousNamespace(t *testing.T) {
	const dir = "../../testdata/programs"
	afdo := filepath.Join(t.TempDir(), "anonns.afdo")
	profgen(t, "--perfscript", filepath.Join(dir, "anonns.lbr.script"), "--binary", filepath.Join(dir, "bin", "anonns-gcc"),
		"--format=gcc", "-q", "-o", afdo)
	p, err := sampleprof.ReadFile(afdo)
	if err != nil {
		t.Fatal(err)
	}
	const (
		add = "_ZNK12_GLOBAL__N_13BinINS_3AddEE4evalEl"
		mul = "_ZNK12_GLOBAL__N_13BinINS_3MulEE4evalEl"
		num = "_ZNK12_GLOBAL__N_13Num4evalEl"
		mix = "_ZN12_GLOBAL__N_13mixEl"
	)
	for _, name := range []string{mul, num, "_ZNK12_GLOBAL__N_13Var4evalEl", mix} {
		if f := p.Functions[name]; f == nil || f.HeadSamples == 0 {
			t.Errorf("%s: %+v, want a function entered", name, f)
		}
	}
	if p.Functions["eval"] != nil {
		t.Error(`a function "eval"`)
	}
	names := map[string]bool{} // of inlinees and call targets
	var walk func(f *sampleprof.FunctionSamples)
	walk = func(f *sampleprof.FunctionSamples) {
		for _, r := range f.Body {
			for target := range r.CallTargets {
				names[target] = true
			}
		}
		for _, callees := range f.Callsites {
			for _, c := range callees {
				names[c.Name] = true
				walk(c)
			}
		}
	}
	for _, f := range p.Functions {
		walk(f)
	}
	for _, name := range []string{add, mul, num, mix} {
		if !names[name] {
			t.Errorf("no inlinee or call target %s; have %v", name, slices.Sorted(maps.Keys(names)))
		}
	}
	if names["eval"] || names["mix"] {
		t.Errorf(`inlinees or call targets named by DW_AT_name: %v`, slices.Sorted(maps.Keys(names)))
	}
	testutil.Tool(t, "gcc-12")
	src, err := filepath.Abs(filepath.Join(dir, "anonns.cc"))
	if err != nil {
		t.Fatal(err)
	}
	diag, dump := compileWithProfile(t, src, []string{"-O2", "-g", "-Wall", "-fdump-ipa-afdo-details"}, afdo)
	if diag != "" || dump == "" {
		t.Fatalf("gcc-12 said:\n%s", diag)
	}
	checkHottestCounts(t, afdo, dump, 5, 5)
	if data, err := os.ReadFile(dump); err != nil || !bytes.Contains(data, []byte("Indirect call -> direct call")) {
		t.Errorf("gcc-12 promoted no virtual call to a direct one (%v)", err)
	}
}

// TestGCCRowInterpAccepted: the C++ interpreter of make pgo-eval
// (testdata/pgo-eval/interp.cc, built here with its flags there: g++-12
// -O2 -g -fno-omit-frame-pointer): gcc-12 compiles it with profgen's
// profile of its training run, from an exact LBR trace (tools/lbrgen
// under valgrind) and from perf record -g, without a word, and the
// 10 hottest functions of the profile carry its counts in the afdo dump
// (checkHottestCounts: the dump names C++ functions by their source
// names, with class and arguments, so they are matched by count, not by
// name). The methods of its anonymous namespace have no
// DW_AT_linkage_name: each is named by its ELF symbol
// (TestGCCRowAnonymousNamespace).
func TestGCCRowInterpAccepted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and traces the interpreter")
	}
	testutil.Tools(t, "g++-12", "valgrind", "go")
	root, err := testutil.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir, flags := t.TempDir(), []string{"-O2", "-g", "-fno-omit-frame-pointer"}
	src, mini := filepath.Join(root, "testdata/pgo-eval/interp.cc"), filepath.Join(root, "testdata/pgo-eval/train.mini")
	bin, lbrgen, script := filepath.Join(dir, "interp"), filepath.Join(dir, "lbrgen"), filepath.Join(dir, "lbr.script")
	run(t, "g++-12", append(flags, "-o", bin, src)...)
	run(t, "go", "build", "-C", root, "-o", lbrgen, "./tools/lbrgen")
	run(t, lbrgen, "-binary", bin, "-seed", "1", "-period", "2000", "-depth", "32", "-single", script, "--", mini, "400")
	inputs := map[string]func(t *testing.T) []string{
		"LBR":         func(*testing.T) []string { return []string{"--perfscript", script} },
		"call stacks": func(t *testing.T) []string { return []string{"--perfdata", recordStacks(t, bin, mini, "200000")} }, // 0.8 s
	}
	// The exact trace has a fixed set of functions; perf's cpu-clock
	// samples of 0.8 s, 5 functions here, fewer on a loaded machine.
	least := map[string]int{"LBR": 3, "call stacks": 1}
	for _, input := range []string{"LBR", "call stacks"} {
		t.Run(input, func(t *testing.T) {
			afdo := filepath.Join(t.TempDir(), "interp.afdo")
			profgen(t, append(inputs[input](t), "--binary", bin, "--format=gcc", "-o", afdo, "-q")...)
			diag, dump := compileWithProfile(t, src, append(flags, "-Wall"), afdo)
			if diag != "" || dump == "" {
				t.Fatalf("gcc-12 said:\n%s", diag)
			}
			checkHottestCounts(t, afdo, dump, 10, least[input])
		})
	}
}

// checkHottestCounts checks that each of the n functions of the profile
// with the largest counts (head or hottest line; all of them if it has
// fewer, at least `least`) has a count that is a block count of the dump,
// whatever the block's function: its largest, or else (logged) another of
// its head and line counts above 1.
func checkHottestCounts(t *testing.T, profile, dump string, n, least int) {
	t.Helper()
	p, err := sampleprof.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	inDump := allBlockCounts(t, dump)
	want := func(f *sampleprof.FunctionSamples) uint64 { return max(f.HeadSamples, maxBodyCount(f)) }
	fns := slices.Collect(maps.Values(p.Functions))
	slices.SortFunc(fns, func(a, b *sampleprof.FunctionSamples) int {
		return cmp.Or(cmp.Compare(want(b), want(a)), strings.Compare(a.Name, b.Name))
	})
	if len(fns) < least {
		t.Fatalf("%d functions in the profile, want at least %d", len(fns), least)
	}
	for _, f := range fns[:min(n, len(fns))] {
		if inDump[want(f)] {
			continue
		}
		if c, ok := someCount(f, inDump); ok {
			t.Logf("%s: no block of %d, its hottest count, but one of %d, another of its counts", f.Name, want(f), c)
			continue
		}
		t.Errorf("%s: none of its counts is a block count of the afdo dump", f.Name)
	}
}

// allBlockCounts are the block counts of an afdo dump, of every function.
func allBlockCounts(t *testing.T, dump string) map[uint64]bool {
	t.Helper()
	data, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[uint64]bool{}
	for _, m := range dumpBlock.FindAllStringSubmatch(string(data), -1) {
		n, _ := strconv.ParseUint(m[1], 10, 64)
		counts[n] = true
	}
	return counts
}

// recordStacks runs bin args under perf record -e cpu-clock -g and returns
// the perf.data; the test is skipped where perf cannot record.
func recordStacks(t *testing.T, bin string, args ...string) string {
	t.Helper()
	testutil.Tool(t, "perf")
	data := filepath.Join(t.TempDir(), "perf.data")
	bin, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("perf", append([]string{"record", "-q", "-e", "cpu-clock", "-c", "50000", "-g", "-o", data, "--", bin}, args...)...)
	cmd.Dir = t.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("perf record: %v\n%s", err, out)
	}
	return data
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(data))
}

// compileWithProfile compiles src -c with gcc-12, flags and the profile,
// returning gcc's diagnostics and the afdo dump ("" when gcc failed).
func compileWithProfile(t *testing.T, src string, flags []string, profile string) (diag, dump string) {
	t.Helper()
	dir := t.TempDir()
	abs, err := filepath.Abs(profile)
	if err != nil {
		t.Fatal(err)
	}
	args := append(slices.Clone(flags), "-fauto-profile="+abs, "-fdump-ipa-afdo", "-I", filepath.Dir(src), "-c", src, "-o", "out.o")
	cmd := exec.Command("gcc-12", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), ""
	}
	dumps, _ := filepath.Glob(filepath.Join(dir, "*i.afdo"))
	if len(dumps) != 1 {
		t.Fatalf("gcc-12 left %d afdo dumps", len(dumps))
	}
	return string(out), dumps[0]
}

// checkHottest checks that each of the n functions of the profile with
// the largest counts that the dump has carries counts of the profile: a
// block of checkAnnotated's count, or else (logged) a block of one of its
// head and line counts above 1. (On sqlite, gcc-12 leaves the hottest
// line's count on no block of 3 of the 20: sqlite3VdbeExec,
// sqlite3GetVarint, vdbeSorterCompareInt.)
func checkHottest(t *testing.T, profile, dump string, n int) {
	t.Helper()
	p, err := sampleprof.ReadFile(profile)
	if err != nil {
		t.Fatal(err)
	}
	blocks := dumpBlockCounts(t, dump)
	var names []string
	for name := range p.Functions {
		if blocks[name] != nil {
			names = append(names, name)
		}
	}
	want := func(name string) uint64 { f := p.Functions[name]; return max(f.HeadSamples, maxBodyCount(f)) }
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(want(b), want(a)) })
	if len(names) < n {
		t.Fatalf("%d functions of the profile in the dump, want at least %d", len(names), n)
	}
	for _, name := range names[:n] {
		if blocks[name][want(name)] {
			continue
		}
		if c, ok := someCount(p.Functions[name], blocks[name]); ok {
			t.Logf("%s: no block of %d, its hottest count, but one of %d, another of its counts", name, want(name), c)
			continue
		}
		t.Errorf("%s: no block with a count of the profile in the afdo dump (block counts %v)", name, blocks[name])
	}
}

// someCount returns a head or line count of f above 1 that is a block's.
func someCount(f *sampleprof.FunctionSamples, blocks map[uint64]bool) (uint64, bool) {
	if f.HeadSamples > 1 && blocks[f.HeadSamples] {
		return f.HeadSamples, true
	}
	for _, r := range f.Body {
		if r.Samples > 1 && blocks[r.Samples] {
			return r.Samples, true
		}
	}
	return 0, false
}

// TestGCCRowShowsTextCounts: profgen show of the GCC profile of a
// recording prints, function by function, the counts of its text profile:
// every line, call target and inlined callee, and the head count where
// the text profile has one (the GCC form gives a function with head 0 an
// estimate, docs/gcc.md); the totals are left out (GCC's format has none:
// they are read as the sum of the counts). Discriminators and zero counts
// are kept to be comparable (clang-19's builds; --gcc-zeros-as-one=false). And the round trip GCC → LLVM text → GCC
// gives the same bytes, for the default output of the gcc-12 build too.
func TestGCCRowShowsTextCounts(t *testing.T) {
	lbr := testutil.DataDir(t, "lbr")
	for _, prog := range []string{"wordfreq", "sqlite", "sqlite-gcc"} {
		dir := filepath.Join(lbr, prog)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		t.Run(prog, func(t *testing.T) {
			tmp := t.TempDir()
			in := []string{"--perfscript", filepath.Join(dir, "single.script"), "--binary", filepath.Join(dir, "binary"), "-q"}
			afdo, text := filepath.Join(tmp, "p.afdo"), filepath.Join(tmp, "p.txt")
			profgen(t, append(in, "--format=gcc", "-o", afdo)...)
			checkGCCRoundTrip(t, afdo)
			if strings.HasSuffix(prog, "-gcc") {
				return // plain discriminators in GCC's profile, LLVM's decoding in the text one
			}
			profgen(t, append(in, "--format=gcc", "--gcc-fold-discriminators=false", "--gcc-zeros-as-one=false", "-o", afdo)...)
			profgen(t, append(in, "--format=text", "-o", text)...)
			got, want := showBlocks(t, afdo), showBlocks(t, text)
			heads := textHeads(t, text)
			for name, block := range want {
				if heads[name] == 0 {
					block = withoutHead(block)
					got[name] = withoutHead(got[name])
				}
				if got[name] != block {
					t.Errorf("show of the GCC profile, %s:\n%.300s\nof the text profile:\n%.300s", name, got[name], block)
				}
			}
			if len(got) != len(want) || len(want) == 0 {
				t.Errorf("%d functions shown of the GCC profile, %d of the text profile", len(got), len(want))
			}
		})
	}
}

// checkGCCRoundTrip: afdo → merge --text → merge --gcc gives afdo's bytes.
func checkGCCRoundTrip(t *testing.T, afdo string) {
	t.Helper()
	text, again := afdo+".txt", afdo+".again"
	profgen(t, "merge", "--sample", "--text", "-o", text, afdo)
	profgen(t, "merge", "--sample", "--gcc", "-o", again, text)
	if a, b := readFile(t, afdo), readFile(t, again); !bytes.Equal(a, b) {
		t.Errorf("GCC → text → GCC: %d bytes, then %d", len(a), len(b))
	}
}

var (
	showTotal = regexp.MustCompile(`(?m)^(Function: [^:]+|  +[0-9.]+: inlined callee: [^:]+): [0-9]+, `)
	showHead  = regexp.MustCompile(`^(Function: [^:]+: T), [0-9]+, `)
)

// showBlocks is profgen show --sample of path, a block per function,
// totals masked.
func showBlocks(t *testing.T, path string) map[string]string {
	t.Helper()
	cmd := newRootCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetArgs([]string{"show", "--sample", path})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	for _, b := range strings.Split("\n"+out.String(), "\nFunction: ")[1:] {
		b = showTotal.ReplaceAllString("Function: "+b, "$1: T, ")
		name := strings.TrimPrefix(b[:strings.Index(b, ": T,")], "Function: ")
		blocks[name] = strings.TrimSpace(b)
	}
	return blocks
}

func withoutHead(block string) string { return showHead.ReplaceAllString(block, "$1, H, ") }

// textHeads are the head counts of the functions of a text profile.
func textHeads(t *testing.T, path string) map[string]uint64 {
	t.Helper()
	p, err := sampleprof.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	heads := map[string]uint64{}
	for _, f := range p.Functions {
		heads[f.Name] = f.HeadSamples
	}
	return heads
}

// TestProfileDiagnostics: gcc's diagnostics with a profile, less those of
// the baseline and gccOffsetWarning.
func TestProfileDiagnostics(t *testing.T) {
	baseline := "/s/sqlite3.c: In function 'g':\n/s/sqlite3.c:10:8: warning: writing 1 byte into a region of size 0 [-Wstringop-overflow=]\n"
	diag := baseline + "/s/sqlite3.c:20:4: " + gccOffsetWarning + "\n/s/sqlite3.c:30:1: warning: other [-Wfoo]\ncc1: error: bad\n"
	got := profileDiagnostics(diag, baseline)
	want := []string{"/s/sqlite3.c:30:1: warning: other [-Wfoo]", "cc1: error: bad"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
