package driver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil/profwrite"
)

// TestProfilesEqualPerfData (issue 35's acceptance): real perf record -e
// cpu-clock -g recordings of a multi-process C program (testdata/
// programs/forky.c), of a Go program (testdata/goexample) and of sqlite
// (PROFGEN_TESTDATA's, when there), written by the test-only writer
// internal/testutil/profwrite as perf_to_profile's pprof and as the
// OpenTelemetry profiler's OTLP,
// whole or split into several files in two groupings and orders, converts
// to the same LLVM text and pprof profiles as the recording itself
// (--perfdata), byte for byte; the pprof of pprof input has the same
// samples (pprof carries no sample times, which number the objects and
// give the duration).
func TestProfilesEqualPerfData(t *testing.T) {
	if testing.Short() {
		t.Skip("records a workload")
	}
	for _, tool := range []string{"perf", "clang-19", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	for _, rec := range []struct {
		name   string
		record func(*testing.T, string) (string, string)
	}{{"forky", recordForky}, {"goexample", recordGoExample}, {"sqlite", recordSqlite}} {
		t.Run(rec.name, func(t *testing.T) {
			dir := t.TempDir()
			bin, data := rec.record(t, dir)
			checkProfilesEqualPerfData(t, dir, bin, data)
		})
	}
}

// checkProfilesEqualPerfData writes the recording data of bin as
// profiles and compares their conversions with its own.
func checkProfilesEqualPerfData(t *testing.T, dir, bin, data string) {
	samples := profwrite.ReadScript(t, data)
	ids := profwrite.BuildIDs(t, data)
	inputs := map[string][]string{}
	for _, kind := range []struct {
		name  string
		write func(testing.TB, string, []profwrite.Sample, map[string]string)
	}{{"pprof", profwrite.WritePprof}, {"otlp", profwrite.WriteOTLP}} {
		inputs[kind.name] = []string{writeAll(t, dir, kind.name, samples, ids, kind.write)}
		inputs[kind.name+" in 3 files"] = []string{writeSplit(t, dir, kind.name+"-3", samples, ids, kind.write, 3, false)}
		inputs[kind.name+" in 5 files, reversed"] = []string{writeSplit(t, dir, kind.name+"-5", samples, ids, kind.write, 5, true)}
	}
	for _, format := range []string{"text", "pprof"} {
		want := convertTo(t, Options{PerfData: data}, bin, format)
		for name, in := range inputs {
			got, exp := convertTo(t, Options{Profiles: in}, bin, format), want
			if format == "pprof" && strings.HasPrefix(name, "pprof") {
				// pprof has no sample times: its objects are numbered by
				// frame position and path, its duration is the profile's.
				got, exp = profwrite.PprofSamples(t, got), profwrite.PprofSamples(t, want)
			}
			if !bytes.Equal(got, exp) {
				t.Errorf("%s from %s differs from --perfdata's", format, name)
			}
		}
	}
}

// recordForky builds forky and records two processes of it.
func recordForky(t *testing.T, dir string) (bin, data string) {
	bin = filepath.Join(dir, "forky")
	runTool(t, ".", nil, "clang-19", "-O2", "-g", "-fPIE", "-pie", "-fno-omit-frame-pointer", "-o", bin, "../../testdata/programs/forky.c")
	return bin, recordCPUClock(t, dir, bin, "30000000", "2")
}

// recordGoExample builds testdata/goexample and records it.
func recordGoExample(t *testing.T, dir string) (bin, data string) {
	bin = filepath.Join(dir, "goexample")
	src, err := filepath.Abs("../../testdata/goexample")
	if err != nil {
		t.Fatal(err)
	}
	runTool(t, ".", nil, "go", "build", "-C", src, "-o", bin, ".")
	return bin, recordCPUClock(t, dir, bin)
}

// recordSqlite records the sqlite benchmark of PROFGEN_TESTDATA
// (scripts/testdata.d/20-lbr.sh: sqlite3.c, clang-19 -O2 -g, without frame
// pointers, so its call chains are short), when it is there.
func recordSqlite(t *testing.T, dir string) (bin, data string) {
	bin = filepath.Join(os.Getenv("PROFGEN_TESTDATA"), "lbr", "sqlite", "binary")
	if _, err := os.Stat(bin); os.Getenv("PROFGEN_TESTDATA") == "" || err != nil {
		t.Skip("no PROFGEN_TESTDATA/lbr/sqlite/binary")
	}
	data = filepath.Join(dir, "sqlite.perf.data")
	rec := exec.Command("perf", "record", "-q", "-e", "cpu-clock", "-F", "999", "-g", "-o", data, "--", bin, "40000")
	rec.Dir = dir
	if out, err := rec.CombinedOutput(); err != nil {
		t.Skipf("perf record does not work here: %v\n%s", err, out)
	}
	return bin, data
}

// recordCPUClock records bin args with perf record -e cpu-clock -g.
func recordCPUClock(t *testing.T, dir, bin string, args ...string) string {
	data := bin + ".perf.data"
	rec := exec.Command("perf", append([]string{"record", "-q", "-e", "cpu-clock", "-F", "999", "-g", "-o", data, "--", bin}, args...)...)
	rec.Dir = dir
	if out, err := rec.CombinedOutput(); err != nil {
		t.Skipf("perf record does not work here: %v\n%s", err, out)
	}
	return data
}

func writeAll(t *testing.T, dir, name string, samples []profwrite.Sample, ids map[string]string,
	write func(testing.TB, string, []profwrite.Sample, map[string]string)) string {
	path := filepath.Join(dir, name)
	write(t, path, samples, ids)
	return path
}

// writeSplit writes samples into n files of a directory, dealt round
// robin; reversed names them so that their order is the reverse.
func writeSplit(t *testing.T, dir, name string, samples []profwrite.Sample, ids map[string]string,
	write func(testing.TB, string, []profwrite.Sample, map[string]string), n int, reversed bool) string {
	sub := filepath.Join(dir, name)
	os.Mkdir(sub, 0o755)
	parts := make([][]profwrite.Sample, n)
	for i, s := range samples {
		parts[i%n] = append(parts[i%n], s)
	}
	for i, part := range parts {
		k := i
		if reversed {
			k = n - 1 - i
		}
		write(t, filepath.Join(sub, string(rune('a'+k))), part, ids)
	}
	return sub
}

// convertTo converts the input of opts with bin into format.
func convertTo(t *testing.T, opts Options, bin, format string) []byte {
	t.Helper()
	opts.Binaries, opts.Format, opts.Quiet = []string{bin}, format, true
	opts.Output = filepath.Join(t.TempDir(), "out")
	if _, err := Convert(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(opts.Output)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
