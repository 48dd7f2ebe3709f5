package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/testutil"
)

const forkyDir = "../../testdata/callstack/"

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	testutil.Tools(t, tools...)
}

// profgen runs the root command in-process.
func profgen(t *testing.T, args ...string) {
	t.Helper()
	cmd := newRootCommand()
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("profgen %s: %v", strings.Join(args, " "), err)
	}
}

func runTool(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out, err := exec.Command(name, args...).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return out
}

// countsByFunction parses "<count> ... <name>" lines with re.
func countsByFunction(out []byte, re string) map[string]int {
	m := map[string]int{}
	for _, x := range regexp.MustCompile(re).FindAllSubmatch(out, -1) {
		n, _ := strconv.Atoi(string(x[1]))
		m[string(x[2])] += n
	}
	return m
}

// TestForkyPprofMatchesPerfReport: flat per-function counts of profgen's
// pprof (inlines folded into their physical function) equal perf report's
// per-symbol counts for the binary's functions.
func TestForkyPprofMatchesPerfReport(t *testing.T) {
	needTools(t, "perf", "go")
	out := filepath.Join(t.TempDir(), "forky.pb.gz")
	profgen(t, "--binary", forkyDir+"forky", "--perfdata", forkyDir+"forky.perf.data", "--format=pprof", "-o", out)

	top := runTool(t, "go", "tool", "pprof", "-top", "-noinlines", "-sample_index=samples", out)
	got := countsByFunction(top, `(?m)^\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s+(\S+)$`)
	report := runTool(t, "perf", "report", "-i", forkyDir+"forky.perf.data", "--symfs", symfs(t),
		"--no-children", "--sort", "sym", "-g", "none", "--stdio", "-F", "sample,sym", "--dsos", "forky")
	want := countsByFunction(report, `(?m)^\s*(\d+)\s+\[\.\]\s+(\S+)\s*$`)
	if len(want) == 0 {
		t.Fatalf("no counts in perf report output:\n%s", report)
	}
	for fn, n := range want {
		if got[fn] != n {
			t.Errorf("%s: pprof flat %d, perf report %d", fn, got[fn], n)
		}
	}
	t.Logf("perf report: %v", want)

	p := readProfile(t, out)
	if !hasInlinedFrame(p, "mix") {
		t.Error("no location with mix inlined into its caller")
	}
	if p.Mapping[0].BuildID == "" || !strings.HasSuffix(p.Mapping[0].File, "forky") {
		t.Errorf("first mapping = %+v, want forky with a build id", p.Mapping[0])
	}
}

// symfs returns a perf --symfs tree holding the committed forky at the path
// it was recorded at, so that perf report names its symbols on any machine.
func symfs(t *testing.T) string {
	ids := runTool(t, "perf", "buildid-list", "-i", forkyDir+"forky.perf.data")
	m := regexp.MustCompile(`(?m)^[0-9a-f]+ (/\S*/forky)$`).FindSubmatch(ids)
	if m == nil {
		t.Fatalf("forky not in perf buildid-list:\n%s", ids)
	}
	root := t.TempDir()
	dst := filepath.Join(root, string(m[1]))
	src, err := filepath.Abs(forkyDir + "forky")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(src, dst); err != nil {
		t.Fatal(err)
	}
	return root
}

func readProfile(t *testing.T, path string) *profile.Profile {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func hasInlinedFrame(p *profile.Profile, fn string) bool {
	for _, l := range p.Location {
		if len(l.Line) > 1 && l.Line[0].Function.Name == fn {
			return true
		}
	}
	return false
}

// TestPerfDataEqualsPerfScript: --perfdata gives the same output as
// --perfscript on perf script text of the same file, in the layouts users
// type.
func TestPerfDataEqualsPerfScript(t *testing.T) {
	needTools(t, "perf")
	dir := t.TempDir()
	layouts := map[string][]string{
		"default":        nil,
		"default-tasks":  {"--show-mmap-events", "--show-task-events"},
		"pid-ip-sym-dso": {"-F", "pid,ip,sym,dso"},
	}
	for _, format := range []string{"text", "pprof"} {
		fromData := filepath.Join(dir, "data."+format)
		profgen(t, "--binary", forkyDir+"forky", "--perfdata", forkyDir+"forky.perf.data", "--format="+format, "-o", fromData)
		want, _ := os.ReadFile(fromData)
		for name, args := range layouts {
			script := filepath.Join(dir, name+".script")
			text := runTool(t, "perf", append([]string{"script", "-i", forkyDir + "forky.perf.data"}, args...)...)
			os.WriteFile(script, text, 0o644)
			fromScript := filepath.Join(dir, name+"."+format)
			profgen(t, "--binary", forkyDir+"forky", "--perfscript", script, "--format="+format, "-o", fromScript)
			got, _ := os.ReadFile(fromScript)
			if format == "pprof" && name != "default-tasks" {
				// Without the period the pprof lacks cpu/nanoseconds for
				// -F pid,ip,sym,dso; compare sample counts only.
				if c1, c2 := flat(t, fromScript), flat(t, fromData); c1 != c2 {
					t.Errorf("%s %s: samples %s, --perfdata %s", name, format, c1, c2)
				}
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: --perfscript (%s) output differs from --perfdata", format, name)
			}
		}
	}
}

// flat summarizes a pprof profile as sorted "location:count" pairs.
func flat(t *testing.T, path string) string {
	p := readProfile(t, path)
	m := map[uint64]int64{}
	for _, s := range p.Sample {
		m[s.Location[0].Address] += s.Value[0]
	}
	var parts []string
	for a, n := range m {
		parts = append(parts, strconv.FormatUint(a, 16)+":"+strconv.FormatInt(n, 10))
	}
	sortStrings(parts)
	return strings.Join(parts, ",")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// TestForkyTextUsedByClang: the LLVM text profile from call stacks is read
// by llvm-profdata-19 and used by clang-19 -fprofile-sample-use. spin's
// total is its body counts after block-max (its hits: 172).
func TestForkyTextUsedByClang(t *testing.T) {
	needTools(t, "perf", "llvm-profdata-19", "clang-19")
	dir := t.TempDir()
	prof := filepath.Join(dir, "forky.prof")
	profgen(t, "--binary", forkyDir+"forky", "--perfdata", forkyDir+"forky.perf.data", "-o", prof)
	show := runTool(t, "llvm-profdata-19", "show", "--sample", "--all-functions", prof)
	if !bytes.Contains(show, []byte("Function: spin: 458")) {
		t.Errorf("llvm-profdata-19 show:\n%s", show)
	}
	out, err := exec.Command("clang-19", "-O2", "-g", "-c", "-fprofile-sample-use="+prof, "-Rpass=sample-profile-inline",
		"-o", filepath.Join(dir, "forky.o"), "../../testdata/programs/forky.c").CombinedOutput()
	if err != nil {
		t.Fatalf("clang-19: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("'mix' inlined into 'spin'")) {
		t.Errorf("clang-19 did not inline by the profile:\n%s", out)
	}
}

// TestSeveralBinaries: one pprof mapping per binary (a binary without DWARF
// is named by its ELF symbols); LLVM profiles need DWARF in every binary,
// and a binary without it is refused before any input is read.
func TestSeveralBinaries(t *testing.T) {
	needTools(t, "perf")
	libc := "/usr/lib/x86_64-linux-gnu/libc.so.6"
	if _, err := os.Stat(libc); err != nil {
		t.Skip("no " + libc)
	}
	dir := t.TempDir()
	args := []string{"--binary", forkyDir + "forky", "--binary", libc, "--perfdata", forkyDir + "forky.perf.data"}
	cmd := newRootCommand()
	cmd.SetArgs(append(args, "-o", dir))
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), "libc.so.6: no debug information") {
		t.Errorf("LLVM profile of a binary without DWARF: %v", err)
	}
	pb := filepath.Join(dir, "all.pb.gz")
	profgen(t, append(args, "--format=pprof", "-o", pb)...)
	p := readProfile(t, pb)
	if len(p.Mapping) < 2 || !strings.HasSuffix(p.Mapping[1].File, "libc.so.6") || p.Mapping[1].BuildID == "" {
		t.Errorf("mappings = %v, want forky then libc.so.6 with build ids", p.Mapping)
	}
}

// TestGoPGOUsesProfile records the Go example with perf, converts it and
// checks that go build -pgo finds the hot call edge main.total ->
// main.rect.area.
func TestGoPGOUsesProfile(t *testing.T) {
	needTools(t, "perf", "go")
	if testing.Short() {
		t.Skip("records a workload")
	}
	dir := t.TempDir()
	src, _ := filepath.Abs("../../testdata/goexample")
	bin := filepath.Join(dir, "goexample")
	runTool(t, "go", "build", "-C", src, "-o", bin, ".")
	data := filepath.Join(dir, "perf.data")
	if out, err := exec.Command("perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-g", "-o", data, bin).CombinedOutput(); err != nil {
		t.Skipf("perf record does not work here: %v\n%s", err, out)
	}
	pgo := filepath.Join(dir, "goexample.pprof")
	profgen(t, "--binary", bin, "--perfdata", data, "--format=pprof", "-o", pgo)
	out, err := exec.Command("go", "build", "-C", src, "-pgo="+pgo, "-gcflags=-d=pgodebug=2", "-o", bin+".pgo", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -pgo: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`hottest callee main\.rect\.area \(weight [1-9]`).Match(out) {
		t.Errorf("go build -pgo did not report the hot edge to main.rect.area:\n%s", out)
	}
}
