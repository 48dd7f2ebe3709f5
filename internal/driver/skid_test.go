package driver

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/testutil"
)

// TestSkidRepairRecorded: a program with a hot frameless leaf, a hot leaf
// sampled in its prologue and epilogue and a tail call, recorded with perf
// record -g. perf's frame-pointer walk gives fake edges from main (the
// caller's caller) to the leaves; after the repair, neither pprof nor the
// LLVM profile has them, and the real callers get the samples.
func TestSkidRepairRecorded(t *testing.T) {
	clang, perf := testutil.Tool(t, "clang-19"), testutil.Tool(t, "perf")
	dir := t.TempDir()
	bin, data := filepath.Join(dir, "skid"), filepath.Join(dir, "perf.data")
	build := exec.Command(clang, "-O2", "-g", "-fno-omit-frame-pointer", "-momit-leaf-frame-pointer",
		"-o", bin, "../fpskid/testdata/skid.c")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", build, err, out)
	}
	rec := exec.Command(perf, "record", "-q", "-e", "cpu-clock", "-F", "4999", "-g", "-o", data, "--", bin, "60000000")
	if out, err := rec.CombinedOutput(); err != nil {
		t.Skipf("perf record failed (perf_event_paranoid?): %v\n%s", err, out)
	}
	fake := []string{"main -> frameless", "main -> tiny", "run_tail -> frameless"}
	recorded := leafEdges(t, convert(t, Options{PerfData: data, Binaries: []string{bin}, Format: "pprof", NoRepairSkid: true}))
	for _, e := range fake[:2] {
		if recorded[e] == 0 {
			t.Errorf("recorded without repair: no %q; the test program no longer shows the skid (%v)", e, recorded)
		}
	}
	repaired := leafEdges(t, convert(t, Options{PerfData: data, Binaries: []string{bin}, Format: "pprof"}))
	for _, e := range fake {
		if repaired[e] != 0 {
			t.Errorf("repaired pprof: %d samples on the fake edge %q", repaired[e], e)
		}
	}
	for _, e := range []string{"run_frameless -> frameless", "via_tail -> frameless", "run_tiny -> tiny", "run_two -> tiny"} {
		if repaired[e] == 0 {
			t.Errorf("repaired pprof: no sample on %q (%v)", e, repaired)
		}
	}
	t.Logf("leaf edges as recorded: %v; repaired: %v", recorded, repaired)

	text := convert(t, Options{PerfData: data, Binaries: []string{bin}, Format: "text"})
	p, err := sampleprof.ReadText(bytes.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	targets := callTargets(p.Function("main"))
	for _, leaf := range []string{"frameless", "tiny", "via_tail"} {
		if targets[leaf] != 0 {
			t.Errorf("LLVM profile: main calls %s %d times; only run_* call it", leaf, targets[leaf])
		}
	}
	if n := callTargets(p.Function("run_frameless"))["frameless"]; n == 0 {
		t.Error("LLVM profile: run_frameless has no call target frameless")
	}
}

// leafEdges counts the samples of each "caller -> leaf function" pair.
func leafEdges(t *testing.T, data []byte) map[string]int64 {
	t.Helper()
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	edges := map[string]int64{}
	for _, s := range p.Sample {
		var names []string
		for _, l := range s.Location {
			for _, ln := range l.Line {
				names = append(names, ln.Function.Name)
			}
		}
		if len(names) >= 2 {
			edges[names[1]+" -> "+names[0]] += s.Value[0]
		}
	}
	return edges
}

func callTargets(f *sampleprof.FunctionSamples) map[string]uint64 {
	out := map[string]uint64{}
	for _, r := range f.Body {
		for name, n := range r.CallTargets {
			out[name] += n
		}
	}
	return out
}
