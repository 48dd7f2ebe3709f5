package driver

import (
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/testutil"
)

// TestGoPprofAsGoProfilerRecords: the pprof of a Go binary is what Go's
// profiler records by default: no kernel or vDSO frames (their samples on
// the innermost Go frame) and no runtime.goexit root frame; with
// --no-fold-kernel and --keep-goexit, perf's stacks as recorded. The
// samples are the same either way.
func TestGoPprofAsGoProfilerRecords(t *testing.T) {
	goTool, perf := testutil.Tool(t, "go"), testutil.Tool(t, "perf")
	dir := t.TempDir()
	bin, data := filepath.Join(dir, "goview"), filepath.Join(dir, "perf.data")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	build.Dir = "testdata/goview"
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", build, err, out)
	}
	rec := exec.Command(perf, "record", "-q", "-e", "cpu-clock", "-F", "4999", "-g", "-o", data, "--", bin, "1000")
	if out, err := rec.CombinedOutput(); err != nil {
		t.Skipf("perf record failed (perf_event_paranoid?): %v\n%s", err, out)
	}
	tests := []struct {
		name           string
		opts           Options
		goexit, kernel bool // some frames of each kept
	}{
		{"default", Options{}, false, false},
		{"--fold-kernel", Options{FoldKernel: true}, false, false},
		{"--keep-goexit", Options{KeepGoexit: true}, true, false},
		{"--no-fold-kernel", Options{NoFoldKernel: true}, false, true},
		{"perf's view", Options{NoFoldKernel: true, KeepGoexit: true}, true, true},
	}
	var samples []int64
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.PerfData, tt.opts.Binaries, tt.opts.Format = data, []string{bin}, "pprof"
			c := countFrames(t, convert(t, tt.opts))
			if got := c.goexit > 0; got != tt.goexit {
				t.Errorf("%d samples with runtime.goexit, want some: %v", c.goexit, tt.goexit)
			}
			if got := c.kernel > 0; got != tt.kernel {
				t.Errorf("%d samples with kernel or vDSO frames, want some: %v", c.kernel, tt.kernel)
			}
			samples = append(samples, c.samples)
		})
	}
	if slices.Min(samples) != slices.Max(samples) {
		t.Errorf("samples differ between the views: %v", samples)
	}
}

// frameCounts counts a profile's samples, and those with frames of
// runtime.goexit and of the kernel or the vDSO.
type frameCounts struct{ samples, goexit, kernel int64 }

func countFrames(t *testing.T, data []byte) frameCounts {
	t.Helper()
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	var c frameCounts
	for _, s := range p.Sample {
		c.samples += s.Value[0]
		if slices.ContainsFunc(s.Location, isGoexit) {
			c.goexit += s.Value[0]
		}
		if slices.ContainsFunc(s.Location, isKernelOrVDSO) {
			c.kernel += s.Value[0]
		}
	}
	return c
}

func isGoexit(l *profile.Location) bool {
	return len(l.Line) > 0 && l.Line[0].Function.Name == "runtime.goexit"
}

func isKernelOrVDSO(l *profile.Location) bool {
	return l.Mapping != nil && (l.Mapping.File == "[kernel.kallsyms]" || l.Mapping.File == "[vdso]")
}
