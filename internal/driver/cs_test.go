package driver

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	bin "github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/rawprof"
	"github.com/profgen/profgen/internal/testutil"
)

// hybridPrograms returns the test data directories holding hybrid traces
// (hybrid.script: one process; hybrid-multi.script and
// hybrid-multi.<pid>.script: four processes and each alone): lbr/<prog>
// (scripts/testdata.d/20-lbr.sh) and cs/<prog> (80-cs.sh; not the bench
// trace, which has no multi-process part).
func hybridPrograms(t *testing.T) []string {
	t.Helper()
	dirs := dataDirsWith(t, "hybrid-multi.script", "lbr", "cs")
	if len(dirs) == 0 {
		t.Skip("no hybrid traces under $PROFGEN_TESTDATA/lbr or cs")
	}
	return dirs
}

// csPrograms returns the test data directories holding a hybrid trace of
// one process (hybrid.script): those of hybridPrograms, and probe/<prog>
// (25-probe.sh: the programs built with -fpseudo-probe-for-profiling,
// whose contexts are call-site addresses and profiles probe-based).
func csPrograms(t *testing.T) []string {
	t.Helper()
	dirs := dataDirsWith(t, "hybrid-multi.script", "lbr", "cs")
	dirs = append(dirs, dataDirsWith(t, "hybrid.script", "probe")...)
	if len(dirs) == 0 {
		t.Skip("no hybrid traces under $PROFGEN_TESTDATA/lbr, cs or probe")
	}
	return dirs
}

// dataDirsWith returns the directories $PROFGEN_TESTDATA/<top>/<prog>
// holding file.
func dataDirsWith(t *testing.T, file string, tops ...string) []string {
	t.Helper()
	root := os.Getenv("PROFGEN_TESTDATA")
	if root == "" {
		t.Skip("PROFGEN_TESTDATA not set; run make testdata")
	}
	var dirs []string
	for _, top := range tops {
		found, _ := filepath.Glob(filepath.Join(root, top, "*", file))
		for _, f := range found {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	return dirs
}

// hasProbes tells whether a test data directory's binary was built with
// pseudo probes.
func hasProbes(dir string) bool { return filepath.Base(filepath.Dir(dir)) == "probe" }

// testName names a subtest after a test data directory: probe/<prog> for
// the pseudo-probe builds, <prog> for the others.
func testName(dir string) string {
	if hasProbes(dir) {
		return "probe/" + filepath.Base(dir)
	}
	return filepath.Base(dir)
}

// llvmProfgenArgs runs llvm-profgen-19 and returns its output file.
func llvmProfgenArgs(t testing.TB, args ...string) []byte {
	t.Helper()
	tool := testutil.Tool(t, "llvm-profgen-19")
	out := filepath.Join(t.TempDir(), "llvm.out")
	cmd := exec.Command(tool, append(args, "-o", out)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("llvm-profgen-19 %v: %v\n%s", args, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// csVariants are option sets compared with llvm-profgen-19's flags.
var csVariants = []struct {
	name  string
	flags []string
	cs    CSOptions
}{
	{"default", nil, DefaultCSOptions()},
	{"compress-recursion=0", []string{"--compress-recursion=0"}, CSOptions{CompressRecursion: 0, MaxContextDepth: -1, MaxUnsymbolizedContextDepth: -1, MaxSearchDepth: math.MaxUint32 - 1}},
	{"compress-recursion=1", []string{"--compress-recursion=1"}, CSOptions{CompressRecursion: 1, MaxContextDepth: -1, MaxUnsymbolizedContextDepth: -1, MaxSearchDepth: math.MaxUint32 - 1}},
	{"csprof-max-context-depth=2", []string{"--csprof-max-context-depth=2"}, CSOptions{CompressRecursion: -1, MaxContextDepth: 2, MaxUnsymbolizedContextDepth: -1, MaxSearchDepth: math.MaxUint32 - 1}},
	{"csprof-max-context-depth=0", []string{"--csprof-max-context-depth=0"}, CSOptions{CompressRecursion: -1, MaxContextDepth: 0, MaxUnsymbolizedContextDepth: -1, MaxSearchDepth: math.MaxUint32 - 1}},
}

// TestCSUnsymbolizedMatchesLLVM: hybrid samples of one process, unwound
// into contexts, give llvm-profgen-19 --skip-symbolization's bytes, with
// each option set.
func TestCSUnsymbolizedMatchesLLVM(t *testing.T) {
	for _, dir := range csPrograms(t) {
		bin, script := filepath.Join(dir, "binary"), filepath.Join(dir, "hybrid.script")
		for _, v := range csVariants {
			t.Run(testName(dir)+"/"+v.name, func(t *testing.T) {
				want := llvmProfgenArgs(t, append([]string{"--perfscript", script, "--binary", bin, "--skip-symbolization"}, v.flags...)...)
				cs := v.cs
				got := convert(t, Options{PerfScript: script, Binaries: []string{bin}, SkipSymbolization: true, CS: &cs})
				if !bytes.Equal(got, want) {
					t.Errorf("differs from llvm-profgen-19 (%d vs %d bytes)", len(got), len(want))
				}
			})
		}
	}
}

// TestCSProcessesEqualSum: the hybrid samples of four processes, each at
// its own base, give the sum of llvm-profgen-19's unsymbolized outputs on
// each process alone (frame contexts, or call-site addresses for the
// probe build).
func TestCSProcessesEqualSum(t *testing.T) {
	for _, dir := range dataDirsWith(t, "hybrid-multi.script", "lbr", "cs", "probe") {
		each, _ := filepath.Glob(filepath.Join(dir, "hybrid-multi.*.script"))
		if len(each) == 0 {
			continue
		}
		t.Run(testName(dir), func(t *testing.T) {
			bin := filepath.Join(dir, "binary")
			got := convert(t, Options{PerfScript: filepath.Join(dir, "hybrid-multi.script"), Binaries: []string{bin}, SkipSymbolization: true})
			want := sumLLVMCS(t, bin, each)
			if !bytes.Equal(got, want) {
				t.Errorf("differs from the sum of llvm-profgen-19 on %d processes (%d vs %d bytes)", len(each), len(got), len(want))
			}
		})
	}
}

// sumLLVMCS sums llvm-profgen-19's context-sensitive unsymbolized outputs.
func sumLLVMCS(t *testing.T, binPath string, scripts []string) []byte {
	f, err := bin.Open(binPath, bin.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var all []rawprof.Context
	for _, s := range scripts {
		raw := llvmProfgenArgs(t, "--perfscript", s, "--binary", binPath, "--skip-symbolization")
		ctxs, cs, err := rawprof.ReadCS(bytes.NewReader(raw), s, f.PreferredBase())
		if err != nil || !cs {
			t.Fatalf("%s: cs=%v, %v", s, cs, err)
		}
		all = append(all, ctxs...)
	}
	var out bytes.Buffer
	if err := rawprof.WriteCS(&out, all, f.PreferredBase()); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestIgnoreStackSamplesMatchesLLVM: --ignore-stack-samples makes a
// context-insensitive profile of hybrid samples, dropping those whose
// stack leaf is in a prolog or epilog, as llvm-profgen-19.
func TestIgnoreStackSamplesMatchesLLVM(t *testing.T) {
	for _, dir := range csPrograms(t) {
		bin, script := filepath.Join(dir, "binary"), filepath.Join(dir, "hybrid.script")
		t.Run(testName(dir), func(t *testing.T) {
			cs := DefaultCSOptions()
			cs.IgnoreStackSamples = true
			for _, skip := range []bool{true, false} {
				args := []string{"--perfscript", script, "--binary", bin, "--ignore-stack-samples", "--format=text"}
				if skip {
					args = append(args, "--skip-symbolization")
				}
				want := llvmProfgenArgs(t, args...)
				got := convert(t, Options{PerfScript: script, Binaries: []string{bin}, SkipSymbolization: skip, Format: "text", CS: &cs})
				if !bytes.Equal(got, want) {
					t.Errorf("skip-symbolization=%v: differs from llvm-profgen-19 (%d vs %d bytes)", skip, len(got), len(want))
				}
			}
		})
	}
}

// csProfileVariants are llvm-profgen-19 flag sets for CS profiles, with the
// same options set on profgen's side.
var csProfileVariants = []struct {
	name  string
	flags []string
	set   func(*CSOptions)
}{
	{"default", nil, func(*CSOptions) {}},
	{"preinliner=0", []string{"--csspgo-preinliner=0"}, func(o *CSOptions) { o.Profile.PreInliner = false }},
	{"nested=0", []string{"--gen-cs-nested-profile=0"}, func(o *CSOptions) { o.Profile.Nested = false }},
	{"nested=0,preinliner=0", []string{"--gen-cs-nested-profile=0", "--csspgo-preinliner=0"}, func(o *CSOptions) {
		o.Profile.Nested, o.Profile.PreInliner = false, false
	}},
	{"compress-recursion=0,preinliner=0", []string{"--compress-recursion=0", "--csspgo-preinliner=0"}, func(o *CSOptions) {
		o.CompressRecursion, o.Profile.PreInliner = 0, false
	}},
	{"use-context-cost-for-preinliner=0", []string{"--use-context-cost-for-preinliner=0"}, func(o *CSOptions) { o.Profile.ContextCost = false }},
	{"trim-cold-profile", []string{"--trim-cold-profile"}, func(o *CSOptions) { o.Profile.TrimColdProfile = true }},
	{"merge-cold-context,depth=2", []string{"--csprof-merge-cold-context", "--csprof-max-cold-context-depth=2"}, func(o *CSOptions) {
		t := true
		o.Profile.MergeColdContext, o.Profile.MaxColdContextDepth = &t, 2
	}},
	{"preinliner=0,trim-cold-profile", []string{"--csspgo-preinliner=0", "--trim-cold-profile"}, func(o *CSOptions) {
		o.Profile.PreInliner, o.Profile.TrimColdProfile = false, true
	}},
	{"csprof-max-context-depth=2", []string{"--csprof-max-context-depth=2"}, func(o *CSOptions) { o.MaxContextDepth = 2 }},
	{"update-total-samples", []string{"--update-total-samples"}, func(o *CSOptions) { o.Profile.UpdateTotalSamples = true }},
}

// TestCSProfileMatchesLLVM: the text CS profile of hybrid samples (nested
// or flat, with or without the pre-inliner, cold contexts merged or
// trimmed) is byte-identical to llvm-profgen-19's, line-based or, for the
// binaries built with pseudo probes, probe-based (with the tail calls'
// frames inferred).
func TestCSProfileMatchesLLVM(t *testing.T) {
	for _, dir := range csPrograms(t) {
		bin, script := filepath.Join(dir, "binary"), filepath.Join(dir, "hybrid.script")
		for _, v := range csProfileVariants {
			t.Run(testName(dir)+"/"+v.name, func(t *testing.T) {
				want := llvmProfgenArgs(t, append([]string{"--perfscript", script, "--binary", bin, "--format=text"}, v.flags...)...)
				cs := DefaultCSOptions()
				v.set(&cs)
				got := convert(t, Options{PerfScript: script, Binaries: []string{bin}, Format: "text", CS: &cs})
				if !bytes.Equal(got, want) {
					t.Errorf("differs from llvm-profgen-19 (%d vs %d bytes)", len(got), len(want))
				}
			})
		}
	}
}

// TestCSExtBinaryReadByLLVM: the extbinary CS profiles (nested and flat)
// read by llvm-profdata-19 give, as text, profgen's own text output and
// what llvm-profdata-19 makes of llvm-profgen-19's extbinary, and the
// sections other than the function metadata (which LLVM writes in its
// hash table's order) are llvm-profgen-19's bytes.
func TestCSExtBinaryReadByLLVM(t *testing.T) {
	profdata := testutil.Tool(t, "llvm-profdata-19")
	toText := func(t *testing.T, ext []byte) []byte {
		in := filepath.Join(t.TempDir(), "in.prof")
		if err := os.WriteFile(in, ext, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(profdata, "merge", "--sample", "--text", in, "-o", "-").Output()
		if err != nil {
			t.Fatalf("llvm-profdata-19 merge: %v", err)
		}
		return out
	}
	for _, dir := range csPrograms(t) {
		bin, script := filepath.Join(dir, "binary"), filepath.Join(dir, "hybrid.script")
		for _, nested := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/nested=%v", testName(dir), nested), func(t *testing.T) {
				cs := DefaultCSOptions()
				cs.Profile.Nested = nested
				ext := convert(t, Options{PerfScript: script, Binaries: []string{bin}, CS: &cs})
				text := convert(t, Options{PerfScript: script, Binaries: []string{bin}, Format: "text", CS: &cs})
				if out := toText(t, ext); !bytes.Equal(out, text) {
					t.Errorf("llvm-profdata-19's text of the extbinary differs from profgen's text (%d vs %d bytes)", len(out), len(text))
				}
				want := llvmProfgenArgs(t, "--perfscript", script, "--binary", bin, fmt.Sprintf("--gen-cs-nested-profile=%v", nested))
				if out := toText(t, want); !bytes.Equal(out, text) {
					t.Errorf("llvm-profdata-19's text of llvm-profgen-19's extbinary differs from profgen's text (%d vs %d bytes)", len(out), len(text))
				}
				if !sameSectionsButMetadata(ext, want) {
					t.Errorf("extbinary sections differ from llvm-profgen-19's")
				}
			})
		}
	}
}

// sameSectionsButMetadata compares two extbinary files section by section,
// the function metadata by size only.
func sameSectionsButMetadata(a, b []byte) bool {
	sa, sb := extSections(a), extSections(b)
	if len(sa) != len(sb) || len(sa) == 0 {
		return false
	}
	for i := range sa {
		x, y := sa[i], sb[i]
		if x.typ != y.typ || x.flags != y.flags || len(x.data) != len(y.data) {
			return false
		}
		if x.typ != 5 && !bytes.Equal(x.data, y.data) {
			return false
		}
	}
	return true
}

type extSection struct {
	typ, flags uint64
	data       []byte
}

// extSections splits an extbinary file by its section header table.
func extSections(b []byte) []extSection {
	_, n1 := binaryUvarint(b)
	_, n2 := binaryUvarint(b[n1:])
	i := n1 + n2
	if len(b) < i+8 {
		return nil
	}
	count := le(b[i:])
	i += 8
	var out []extSection
	for k := uint64(0); k < count && len(b) >= i+32; k++ {
		typ, flags, off, size := le(b[i:]), le(b[i+8:]), le(b[i+16:]), le(b[i+24:])
		i += 32
		if off+size > uint64(len(b)) {
			return nil
		}
		out = append(out, extSection{typ, flags, b[off : off+size]})
	}
	return out
}

func le(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

func binaryUvarint(b []byte) (uint64, int) { return binary.Uvarint(b) }

// TestCSUnsymbolizedInputMatchesLLVM: a CS unsymbolized profile read back
// with --unsymbolized-profile gives llvm-profgen-19's profile of it.
func TestCSUnsymbolizedInputMatchesLLVM(t *testing.T) {
	for _, dir := range hybridPrograms(t) {
		binPath, script := filepath.Join(dir, "binary"), filepath.Join(dir, "hybrid.script")
		t.Run(filepath.Base(dir), func(t *testing.T) {
			raw := filepath.Join(t.TempDir(), "cs.raw")
			if err := os.WriteFile(raw, convert(t, Options{PerfScript: script, Binaries: []string{binPath}, SkipSymbolization: true}), 0o644); err != nil {
				t.Fatal(err)
			}
			want := llvmProfgenArgs(t, "--unsymbolized-profile", raw, "--binary", binPath, "--format=text")
			got := convert(t, Options{UnsymbolizedProfile: raw, Binaries: []string{binPath}, Format: "text"})
			if !bytes.Equal(got, want) {
				t.Errorf("differs from llvm-profgen-19 (%d vs %d bytes)", len(got), len(want))
			}
			again := convert(t, Options{UnsymbolizedProfile: raw, Binaries: []string{binPath}, SkipSymbolization: true})
			if rawIn, _ := os.ReadFile(raw); !bytes.Equal(again, rawIn) {
				t.Errorf("--unsymbolized-profile --skip-symbolization does not give its input back")
			}
		})
	}
}

// TestCSPreInlinerKeepsSamples: llvm-profgen-19 crashes with the
// pre-inliner and --compress-recursion=0 on deep recursion, and its
// pre-inliner loses the samples of recursive contexts it merges into
// themselves. profgen's pre-inliner (in that mode by default, otherwise
// with --safe-recursive-merge) only moves samples: its profile, flattened
// by llvm-profdata-19 to one profile per function, equals the flattened
// profile llvm-profgen-19 makes of the same contexts without the
// pre-inliner.
func TestCSPreInlinerKeepsSamples(t *testing.T) {
	profdata := testutil.Tool(t, "llvm-profdata-19")
	flatten := func(t *testing.T, prof []byte) []byte {
		in := filepath.Join(t.TempDir(), "in.txt")
		if err := os.WriteFile(in, prof, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(profdata, "merge", "--sample", "--text", "--convert-sample-profile-layout=flat", in, "-o", "-").Output()
		if err != nil {
			t.Fatalf("llvm-profdata-19 merge: %v", err)
		}
		return out
	}
	for _, dir := range csPrograms(t) {
		binPath, script := filepath.Join(dir, "binary"), filepath.Join(dir, "hybrid.script")
		for _, compress := range []int{0, -1} {
			t.Run(fmt.Sprintf("%s/compress-recursion=%d", testName(dir), compress), func(t *testing.T) {
				want := flatten(t, llvmProfgenArgs(t, "--perfscript", script, "--binary", binPath, "--format=text",
					fmt.Sprintf("--compress-recursion=%d", compress), "--csspgo-preinliner=0", "--csprof-merge-cold-context=0", "--gen-cs-nested-profile=0"))
				cs := DefaultCSOptions()
				cs.CompressRecursion, cs.Profile.Nested = compress, false
				safe := true
				cs.SafeRecursiveMerge = &safe
				got := flatten(t, convert(t, Options{PerfScript: script, Binaries: []string{binPath}, Format: "text", CS: &cs}))
				if !bytes.Equal(got, want) {
					t.Errorf("the pre-inlined profile, flattened, differs from the flattened profile without pre-inliner (%d vs %d bytes)", len(got), len(want))
				}
			})
		}
	}
}

// TestCSProfileCompilesWithClang: clang-19 -fprofile-sample-use takes the
// CS profiles (nested and flat, extbinary) of the tail-call program's
// hybrid trace, and the counts reach the IR.
func TestCSProfileCompilesWithClang(t *testing.T) {
	clang := testutil.Tool(t, "clang-19")
	dir := testutil.DataDir(t, "cs", "tailcall")
	root, err := testutil.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(root, "testdata", "programs", "tailcall.c")
	for _, nested := range []bool{true, false} {
		t.Run(fmt.Sprintf("nested=%v", nested), func(t *testing.T) {
			cs := DefaultCSOptions()
			cs.Profile.Nested = nested
			prof := filepath.Join(t.TempDir(), "tailcall.prof")
			data := convert(t, Options{PerfScript: filepath.Join(dir, "hybrid.script"), Binaries: []string{filepath.Join(dir, "binary")}, CS: &cs})
			if err := os.WriteFile(prof, data, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(clang, "-O2", "-g", "-fprofile-sample-use="+prof, "-S", "-emit-llvm", "-o", "-", src)
			ir, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %v", cmd.Args, err)
			}
			for _, want := range []string{`!"ProfileFormat", !"SampleProfile"`, `!"function_entry_count"`} {
				if !bytes.Contains(ir, []byte(want)) {
					t.Errorf("IR lacks %s", want)
				}
			}
		})
	}
}

// TestCSUnwindersAgree: the unwinding spreads over goroutines by
// GOMAXPROCS; the outputs are the same for one and for four.
func TestCSUnwindersAgree(t *testing.T) {
	for _, dir := range csPrograms(t) {
		t.Run(testName(dir), func(t *testing.T) {
			script := filepath.Join(dir, "hybrid-multi.script")
			if _, err := os.Stat(script); err != nil {
				script = filepath.Join(dir, "hybrid.script") // probe builds but tailcall: one process
			}
			opts := Options{PerfScript: script, Binaries: []string{filepath.Join(dir, "binary")}, Format: "text"}
			prev := runtime.GOMAXPROCS(1)
			one := convert(t, opts)
			runtime.GOMAXPROCS(5)
			four := convert(t, opts)
			runtime.GOMAXPROCS(prev)
			if !bytes.Equal(one, four) {
				t.Errorf("one unwinder and four give different profiles (%d vs %d bytes)", len(one), len(four))
			}
		})
	}
}

// TestCSProbeUnsymbolizedInput: a CS unsymbolized profile of a binary
// with pseudo probes (contexts of call-site addresses) read back with
// --unsymbolized-profile gives itself with --skip-symbolization, and the
// profile made from the perf script (which matches llvm-profgen-19's,
// TestCSProfileMatchesLLVM) otherwise. llvm-profgen-19 crashes on such
// input (it parses the addresses as frames), so there is no output of
// its own to compare with.
func TestCSProbeUnsymbolizedInput(t *testing.T) {
	for _, dir := range dataDirsWith(t, "hybrid.script", "probe") {
		binPath, script := filepath.Join(dir, "binary"), filepath.Join(dir, "hybrid.script")
		t.Run(testName(dir), func(t *testing.T) {
			raw := convert(t, Options{PerfScript: script, Binaries: []string{binPath}, SkipSymbolization: true})
			in := filepath.Join(t.TempDir(), "cs.raw")
			if err := os.WriteFile(in, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			again := convert(t, Options{UnsymbolizedProfile: in, Binaries: []string{binPath}, SkipSymbolization: true})
			if !bytes.Equal(again, raw) {
				t.Errorf("--unsymbolized-profile --skip-symbolization does not give its input back (%d vs %d bytes)", len(again), len(raw))
			}
			for _, v := range csProfileVariants {
				cs := DefaultCSOptions()
				v.set(&cs)
				raw := convert(t, Options{PerfScript: script, Binaries: []string{binPath}, SkipSymbolization: true, CS: &cs})
				if err := os.WriteFile(in, raw, 0o644); err != nil {
					t.Fatal(err)
				}
				got := convert(t, Options{UnsymbolizedProfile: in, Binaries: []string{binPath}, Format: "text", CS: &cs})
				want := convert(t, Options{PerfScript: script, Binaries: []string{binPath}, Format: "text", CS: &cs})
				if !bytes.Equal(got, want) {
					t.Errorf("%s: the profile of the unsymbolized profile differs from that of the perf script (%d vs %d bytes)", v.name, len(got), len(want))
				}
			}
		})
	}
}

// TestCSProbeProfileCompilesWithClang: clang-19 -fpseudo-probe-for-profiling
// -fprofile-sample-use takes the CS probe profiles (nested and flat,
// extbinary) of the small probe programs' hybrid traces: the counts reach
// the IR and, asked to report staleness, it finds no function whose CFG
// checksum mismatches.
func TestCSProbeProfileCompilesWithClang(t *testing.T) {
	clang := testutil.Tool(t, "clang-19")
	root, err := testutil.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	hashes := regexp.MustCompile(`\((\d+)/(\d+)\) of functions' profile are invalid`)
	for _, dir := range dataDirsWith(t, "hybrid.script", "probe") {
		prog := filepath.Base(dir)
		if prog == "sqlite" {
			continue // a minute of CPU; the small programs say the same
		}
		for _, nested := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/nested=%v", testName(dir), nested), func(t *testing.T) {
				cs := DefaultCSOptions()
				cs.Profile.Nested = nested
				prof := filepath.Join(t.TempDir(), prog+".prof")
				data := convert(t, Options{PerfScript: filepath.Join(dir, "hybrid.script"), Binaries: []string{filepath.Join(dir, "binary")}, CS: &cs})
				if err := os.WriteFile(prof, data, 0o644); err != nil {
					t.Fatal(err)
				}
				// From the source's directory by its base name, as 25-probe.sh
				// compiled it: .__uniq. suffixes hash that name.
				cmd := exec.Command(clang, "-O2", "-g", "-fpseudo-probe-for-profiling", "-fprofile-sample-use="+prof,
					"-mllvm", "-report-profile-staleness", "-S", "-emit-llvm", "-o", "-", prog+".c")
				cmd.Dir = filepath.Join(root, "testdata", "programs")
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				ir, err := cmd.Output()
				if err != nil {
					t.Fatalf("%v: %v\n%s", cmd.Args, err, stderr.Bytes())
				}
				for _, want := range []string{`!"ProfileFormat", !"SampleProfile"`, `!"function_entry_count"`, `@llvm.pseudoprobe`} {
					if !bytes.Contains(ir, []byte(want)) {
						t.Errorf("IR lacks %s", want)
					}
				}
				m := hashes.FindSubmatch(stderr.Bytes())
				if m == nil {
					t.Fatalf("no staleness report from clang-19:\n%s", stderr.Bytes())
				}
				if string(m[1]) != "0" || (nested && string(m[2]) == "0") {
					t.Errorf("clang-19: %s", m[0])
				}
			})
		}
	}
}

// TestCSUnsymbolizedOfOtherKind: a CS unsymbolized profile read with a
// binary of the other kind (address contexts of a probe build with a
// binary without probes, frame contexts with a probe build) fails naming
// the context and its line, rather than giving a profile of nonsense
// frames.
func TestCSUnsymbolizedOfOtherKind(t *testing.T) {
	probeDir := testutil.DataDir(t, "probe", "tailcall")
	lineDir := testutil.DataDir(t, "cs", "tailcall")
	for _, tt := range []struct{ from, with, want string }{
		{probeDir, lineDir, "is of call-site addresses"},
		{lineDir, probeDir, "is not a hex address"},
	} {
		raw := convert(t, Options{PerfScript: filepath.Join(tt.from, "hybrid.script"), Binaries: []string{filepath.Join(tt.from, "binary")}, SkipSymbolization: true})
		in := filepath.Join(t.TempDir(), "cs.raw")
		if err := os.WriteFile(in, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		err := Run(context.Background(), Options{UnsymbolizedProfile: in, Binaries: []string{filepath.Join(tt.with, "binary")}, Format: "text",
			Output: filepath.Join(t.TempDir(), "out"), Quiet: true})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), in+":") {
			t.Errorf("profile of %s with the binary of %s: %v, want an error with %q at a line of %s", testName(tt.from), testName(tt.with), err, tt.want, in)
		}
	}
}
