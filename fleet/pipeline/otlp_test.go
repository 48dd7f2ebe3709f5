package pipeline

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/driver"
	"github.com/profgen/profgen/internal/testutil/profwrite"
)

// Issue 35's fleet acceptance: a call-stack recording of one build cut
// into 1,000 OTLP files (as the OpenTelemetry eBPF profiler sends a
// profile every few seconds; internal/testutil/profwrite writes them),
// merged by profgen-fleet on prism, gives byte for byte what one profgen
// run over the directory (--profile DIR) and the one-pass --perfdata
// conversion of the recording write, text and pprof.

// otlpParts is the number of OTLP files the recording is cut into.
const otlpParts = 1000

func TestFleetOTLPMatchesProfgen(t *testing.T) {
	if testing.Short() {
		t.Skip("records a workload and runs the pipeline")
	}
	if _, err := exec.LookPath("perf"); err != nil {
		t.Skip("no perf")
	}
	bin, data := forkyRecording(t)
	samples := profwrite.ReadScript(t, data)
	if len(samples) < 200 {
		t.Fatalf("%s: %d samples, want 200 at least", data, len(samples))
	}
	dir := filepath.Join(t.TempDir(), "otlp")
	files := profwrite.WriteOTLPFiles(t, dir, samples, profwrite.BuildIDs(t, data), otlpParts)
	formats := []string{"text", "pprof"}
	start := time.Now()
	opts := Options{Inputs: []string{filepath.Join(dir, "*.otlp")}, Binaries: []string{bin}, Formats: formats, SkipBadInputs: true}
	got, sum := runFleet(t, "otlp", opts)
	t.Logf("embedded prism: %d OTLP files of %d samples in %v, %d with no sample in forky", len(files), len(samples),
		time.Since(start).Round(time.Millisecond), len(sum.Bad))
	checkOTLPSummary(t, sum, len(files))
	id := buildIDHex(t, bin)
	want := []string{summaryFile, kindStacks + "/" + id + "." + extension(t, "pprof"), kindStacks + "/" + id + "." + extension(t, "text")}
	if names := outputNames(t, got); !slices.Equal(names, want) {
		t.Fatalf("wrote %v, want %v", names, want)
	}
	ref := t.TempDir()
	for _, f := range formats {
		fleetOut := filepath.Join(got, kindStacks, id+"."+extension(t, f))
		sameFile(t, fleetOut, convertOnce(t, driver.Options{Profiles: []string{dir}}, bin, filepath.Join(ref, "profiles."+f), f))
		sameFile(t, fleetOut, convertOnce(t, driver.Options{PerfData: data}, bin, filepath.Join(ref, "perfdata."+f), f))
	}
	if t.Failed() {
		sum.Print(os.Stderr)
	}
}

// checkOTLPSummary checks that every one of n files was read, into one
// key and one conversion. A file cut from the recording whose samples are
// none in forky (the shell that started it, the dynamic loader, the
// kernel) is an error of the driver (ErrNoSamples), which
// --skip-bad-inputs counts and leaves out: it adds nothing to the one
// pass either.
func checkOTLPSummary(t *testing.T, sum *Summary, n int) {
	t.Helper()
	if sum.Inputs+int64(len(sum.Bad)) != int64(n) || len(sum.Keys) != 1 || sum.Symbolized != 1 {
		t.Errorf("read %d inputs and %d bad into %d keys, %d conversions; want %d inputs, 1 key, 1 conversion",
			sum.Inputs, len(sum.Bad), len(sum.Keys), sum.Symbolized, n)
	}
	for _, b := range sum.Bad {
		if !strings.Contains(b, driver.ErrNoSamples.Error()) {
			t.Errorf("bad input %s, want only files of no sample in forky", b)
		}
	}
}

// convertOnce is one profgen run of opts with bin into format, at out.
func convertOnce(t *testing.T, opts driver.Options, bin, out, format string) string {
	opts.Binaries, opts.Format, opts.Output = []string{bin}, format, out
	profgen(t, opts)
	return out
}

// forkyRecording records testdata/callstack/forky (two processes, each
// forking two children) with perf record -e cpu-clock -F 999 -g, for
// about 2,000 samples; where perf cannot record, it is the recording
// checked in beside it (221 samples).
func forkyRecording(t *testing.T) (bin, data string) {
	bin, err := filepath.Abs(filepath.Join("..", "..", "testdata", "callstack", "forky"))
	if err != nil {
		t.Fatal(err)
	}
	data = filepath.Join(t.TempDir(), "forky.perf.data")
	rec := exec.Command("perf", "record", "-q", "-N", "-e", "cpu-clock", "-F", "999", "-g", "-o", data, "--", bin, "250000000", "2")
	if out, err := rec.CombinedOutput(); err != nil {
		t.Logf("perf record does not work here (%v: %s): the checked-in recording", err, out)
		return bin, bin + ".perf.data"
	}
	return bin, data
}
