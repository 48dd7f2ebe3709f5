package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/driver"
	"github.com/profgen/profgen/internal/testutil"
)

// goProfilerPackage is what the Go compiler compiles in
// TestGoProfilerEdgeShare, with its dependencies (PGOEVAL_PACKAGE
// overrides it): the recording of scripts/bench.d/05-gocompile-data.sh.
const goProfilerPackage = "net/http"

// TestGoProfilerEdgeShare: on the Go compiler compiling a package and its
// dependencies (go build -toolexec runs every compile with -cpuprofile),
// recorded with perf record -e cpu-clock -g, profgen's default pprof
// shares about as much call-edge weight (stack-overlap: the function
// edges of whole stacks) with Go's own profile of the same run as Go's
// profile of a second run does: it logs the gap against the goal
// (edgeShareGoal) and fails when the gap exceeds edgeShareFloor. It logs the numbers, and
// those of perf's view (--no-fold-kernel --keep-goexit) and of each
// default alone:
//
//	go test -v -run TestGoProfilerEdgeShare ./tools/pgoeval
//
// PGOEVAL_KEEP=DIR keeps the recording and the profiles in DIR (Go's
// profiles of each run merged: go-run1.pprof, go-run2.pprof; profgen's:
// profgen-*.pprof), for pgoeval stack-overlap and stack-diff.
func TestGoProfilerEdgeShare(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package and its dependencies twice")
	}
	goTool, perf := testutil.Tool(t, "go"), testutil.Tool(t, "perf")
	dir := orDefault(os.Getenv("PGOEVAL_KEEP"), t.TempDir())
	checkPerfRecord(t, perf, dir)
	compile := goToolPath(t, goTool, "compile")
	pkg := orDefault(os.Getenv("PGOEVAL_PACKAGE"), goProfilerPackage)
	perfData := filepath.Join(dir, "perf.data")
	run1 := compileProfiles(t, goTool, dir, "run1", pkg, perf, "record", "-q", "-e", "cpu-clock", "-F", "999", "-g", "-o", perfData, "--")
	run2 := compileProfiles(t, goTool, dir, "run2", pkg)
	goGo := stackOverlap(t, run1, run2)
	t.Logf("%s: Go's profiler, run 1 vs run 2: %.4f (%d and %d samples)", pkg, goGo, sampleCount(run1), sampleCount(run2))
	var def float64
	for _, v := range []struct {
		name string
		opts driver.Options
	}{
		{"default", driver.Options{}},
		{"keep-goexit", driver.Options{KeepGoexit: true}},
		{"no-fold-kernel", driver.Options{NoFoldKernel: true}},
		{"perf-view", driver.Options{NoFoldKernel: true, KeepGoexit: true}},
	} {
		p := profgenPprof(t, v.opts, perfData, compile, filepath.Join(dir, "profgen-"+v.name+".pprof"))
		o := stackOverlap(t, p, run1)
		t.Logf("%s: profgen (%s) vs Go's profiler, run 1: %.4f (%d samples)", pkg, v.name, o, sampleCount(p))
		if v.name == "default" {
			def = o
		}
	}
	t.Logf("gap to Go's second run: %.4f (goal: at most %.2f, issue 34's Go item; failing above %.2f)", goGo-def, edgeShareGoal, edgeShareFloor)
	if def < goGo-edgeShareFloor {
		t.Errorf("profgen's default pprof shares %.4f of its call-edge weight with Go's profile; two runs of Go's profiler share %.4f", def, goGo)
	}
}

// The gap between profgen's default pprof and a second run of Go's
// profiler, in shared call-edge weight: the goal, and the regression
// guard the test fails at. The gap depends on the host (kernel, perf, the
// load): 0.011 on the machine of docs/pprof.md's table, 0.026 to 0.028 on
// 2026-12-02's for the code of 16e6d9f and after alike.
const (
	edgeShareGoal  = 0.02
	edgeShareFloor = 0.05
)

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkPerfRecord skips the test when perf record is not permitted.
func checkPerfRecord(t *testing.T, perf, dir string) {
	t.Helper()
	out, err := exec.Command(perf, "record", "-q", "-e", "cpu-clock", "-g", "-o", filepath.Join(dir, "check.data"), "--", "true").CombinedOutput()
	if err != nil {
		t.Skipf("perf record failed (perf_event_paranoid?): %v\n%s", err, out)
	}
}

func goToolPath(t *testing.T, goTool, name string) string {
	t.Helper()
	out, err := exec.Command(goTool, "env", "GOTOOLDIR").Output()
	if err != nil {
		t.Fatalf("go env GOTOOLDIR: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), name)
}

// toolexec runs the compiler with -cpuprofile into $PGOEVAL_PROFILES, one
// profile per process, and every other tool as it is.
const toolexec = `#!/bin/sh
tool=$1
shift
if [ "$(basename "$tool")" = compile ] && [ "$1" != -V=full ]; then
	exec "$tool" -cpuprofile "$PGOEVAL_PROFILES/compile.$$.pprof" "$@"
fi
exec "$tool" "$@"
`

// compileProfiles builds pkg and its dependencies from an empty build
// cache, the command prefixed with wrap (perf record ...), and returns Go's
// profiles of the compiler processes merged.
func compileProfiles(t *testing.T, goTool, dir, run, pkg string, wrap ...string) *profile.Profile {
	t.Helper()
	runDir := filepath.Join(dir, run)
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "toolexec.sh")
	if err := os.WriteFile(script, []byte(toolexec), 0o755); err != nil {
		t.Fatal(err)
	}
	args := append(wrap, goTool, "build", "-toolexec="+script, "-o", os.DevNull, pkg)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "GOCACHE="+filepath.Join(runDir, "cache"), "GOFLAGS=", "PGOEVAL_PROFILES="+runDir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	p := mergedProfiles(t, filepath.Join(runDir, "compile.*.pprof"))
	writeProfile(t, p, filepath.Join(dir, "go-"+run+".pprof"))
	return p
}

func mergedProfiles(t *testing.T, pattern string) *profile.Profile {
	t.Helper()
	files, _ := filepath.Glob(pattern)
	var ps []*profile.Profile
	for _, f := range files {
		ps = append(ps, readProfile(t, f))
	}
	if len(ps) == 0 {
		t.Fatalf("no profiles %s", pattern)
	}
	p, err := profile.Merge(ps)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func writeProfile(t *testing.T, p *profile.Profile, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func readProfile(t *testing.T, path string) *profile.Profile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}

// profgenPprof converts the recording to pprof with opts' pprof flags.
func profgenPprof(t *testing.T, opts driver.Options, perfData, binary, out string) *profile.Profile {
	t.Helper()
	opts.PerfData, opts.Binaries, opts.Format, opts.Output, opts.Quiet = perfData, []string{binary}, "pprof", out, true
	if err := driver.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	return readProfile(t, out)
}

func stackOverlap(t *testing.T, a, b *profile.Profile) float64 {
	t.Helper()
	sa, err := shares(a, stackEdges)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := shares(b, stackEdges)
	if err != nil {
		t.Fatal(err)
	}
	return overlap(sa, sb)
}

// sampleCount is the number of samples of a profile whose first value
// counts them, as Go's and profgen's do.
func sampleCount(p *profile.Profile) int64 {
	var n int64
	for _, s := range p.Sample {
		n += s.Value[0]
	}
	return n
}
