package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// Issue 28's acceptance: profgen's BOLT profiles of a recording against
// perf2bolt-22's of the same recording, compared as sets of lines.

const perf2bolt22 = "/usr/lib/llvm-22/bin/perf2bolt"

// perf2boltLines runs perf2bolt-22 with args on bin and returns the lines
// of the fdata it writes.
func perf2boltLines(t *testing.T, bin string, args ...string) []string {
	t.Helper()
	needTools(t, perf2bolt22, "perf")
	out := filepath.Join(t.TempDir(), "perf2bolt.fdata")
	cmd := exec.Command(perf2bolt22, append(append(args, "-o", out), bin)...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("perf2bolt %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return fileLines(t, out)
}

// profgenBolt runs profgen with args and --format=format and returns the
// lines of the file it writes.
func profgenBolt(t *testing.T, format string, args ...string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "profgen."+format)
	profgen(t, append([]string{"-q", "--format", format, "-o", out}, args...)...)
	return fileLines(t, out)
}

func fileLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// sameLineSets fails unless got and want hold the same lines, whatever
// their order; it logs how many are equal.
func sameLineSets(t *testing.T, got, want []string) {
	t.Helper()
	g, w := slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))
	var onlyGot, onlyWant []string
	for i, j := 0, 0; i < len(g) || j < len(w); {
		switch {
		case j == len(w) || i < len(g) && g[i] < w[j]:
			onlyGot, i = append(onlyGot, g[i]), i+1
		case i == len(g) || w[j] < g[i]:
			onlyWant, j = append(onlyWant, w[j]), j+1
		default:
			i, j = i+1, j+1
		}
	}
	t.Logf("%d lines equal, %d only profgen's, %d only perf2bolt's", len(g)-len(onlyGot), len(onlyGot), len(onlyWant))
	if len(onlyGot)+len(onlyWant) > 0 {
		t.Errorf("only profgen's:\n%s\nonly perf2bolt's:\n%s",
			strings.Join(onlyGot[:min(20, len(onlyGot))], "\n"), strings.Join(onlyWant[:min(20, len(onlyWant))], "\n"))
	}
}

// TestBoltFdataMatchesPerf2bolt: --format=bolt of lbrgen's exact LBR
// recordings of sqlite (clang, typed flags with mispredictions), read
// natively and as perf script text (by chunks on 2 workers), equals
// perf2bolt-22's fdata of the perf.data; of the 4 processes at 4 ASLR
// bases, the sum of perf2bolt-22 --pid over each process; of the hybrid
// samples (perf record -b -g), the fdata of their branch stacks; of a PID
// reused by 4 processes at 4 bases, the fdata of the same trace in one
// process.
func TestBoltFdataMatchesPerf2bolt(t *testing.T) {
	dir := testutil.DataDir(t, "lbr", "sqlite")
	bin := filepath.Join(dir, "binary")
	for _, tc := range []struct{ name, input, reference string }{
		{"single perf.data", "--perfdata=single.perf.data", "single.perf.data"},
		{"single script -j 2", "--perfscript=single.script", "single.perf.data"},
		{"4 processes perf.data", "--perfdata=multi.perf.data", "multi.perf.data"},
		{"4 processes script -j 2", "--perfscript=multi.script", "multi.perf.data"},
		{"4 processes hybrid", "--perfscript=hybrid-multi.script", "multi.perf.data"},
		// A PID that exits and comes back at another base, 4 times:
		// perf2bolt-22 keeps one base per PID and misplaces the samples of
		// the other lives (on reuse.perf.data itself, 9713 lines differ
		// from the same trace's single-process fdata). profgen follows
		// the lives: the fdata of the single-process recording.
		{"PID reuse", "--perfdata=reuse.perf.data", "single.perf.data"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			flag, file, _ := strings.Cut(tc.input, "=")
			got := profgenBolt(t, "bolt", "--binary", bin, flag, filepath.Join(dir, file), "-j", "2")
			want := perf2boltLines(t, bin, "-p", filepath.Join(dir, tc.reference))
			sameLineSets(t, got, want)
			if tc.reference == "multi.perf.data" {
				sameLineSets(t, got, sumPerPID(t, dir, bin))
			}
		})
	}
}

// sumPerPID is the sum of perf2bolt-22 --pid P -p multi.perf.data over
// the processes of multi.procs, as fdata lines.
func sumPerPID(t *testing.T, dir, bin string) []string {
	t.Helper()
	sums := map[string][2]uint64{} // the record's locations: mispredictions, count
	for _, pid := range recordedPIDs(t, filepath.Join(dir, "multi.procs")) {
		for _, l := range perf2boltLines(t, bin, "--pid", pid, "-p", filepath.Join(dir, "multi.perf.data")) {
			f := strings.Fields(l)
			if len(f) != 8 {
				t.Fatalf("perf2bolt --pid %s: not a branch record: %q", pid, l)
			}
			key := strings.Join(f[:6], " ")
			s := sums[key]
			sums[key] = [2]uint64{s[0] + parseUint(t, f[6]), s[1] + parseUint(t, f[7])}
		}
	}
	var out []string
	for k, s := range sums {
		out = append(out, fmt.Sprintf("%s %d %d", k, s[0], s[1]))
	}
	return out
}

// recordedPIDs are the processes lbrgen lists in a .procs file.
func recordedPIDs(t *testing.T, procs string) []string {
	t.Helper()
	f, err := os.Open(procs)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pids []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) > 0 && !strings.HasPrefix(fields[0], "#") {
			pids = append(pids, fields[0])
		}
	}
	if len(pids) < 2 {
		t.Fatalf("%s: %d processes", procs, len(pids))
	}
	return pids
}

func parseUint(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBoltPreaggMatchesPerf2bolt: perf2bolt-22 --pa reads profgen's
// --format=bolt-preagg into the fdata perf2bolt-22 makes of the perf.data.
func TestBoltPreaggMatchesPerf2bolt(t *testing.T) {
	dir := testutil.DataDir(t, "lbr", "sqlite")
	bin := filepath.Join(dir, "binary")
	for _, rec := range []string{"single", "multi"} {
		t.Run(rec, func(t *testing.T) {
			perfData := filepath.Join(dir, rec+".perf.data")
			preagg := filepath.Join(t.TempDir(), "preagg.txt")
			profgen(t, "-q", "--format=bolt-preagg", "-o", preagg, "--binary", bin, "--perfdata", perfData)
			sameLineSets(t, perf2boltLines(t, bin, "--pa", "-p", preagg), perf2boltLines(t, bin, "-p", perfData))
		})
	}
}

// TestBoltNoLBRMatchesPerf2bolt: --format=bolt of IP samples (perf record
// -e cpu-clock of sqlite, no branch stacks) is the no_lbr fdata, equal to
// perf2bolt-22 --ba's.
func TestBoltNoLBRMatchesPerf2bolt(t *testing.T) {
	dir := testutil.DataDir(t, "lbr", "sqlite")
	bin := filepath.Join(dir, "binary")
	needTools(t, perf2bolt22, "perf")
	perfData := filepath.Join(t.TempDir(), "ip.perf.data")
	rec := exec.Command("perf", "record", "-q", "-e", "cpu-clock", "-c", "20000", "-o", perfData, "--", bin, "3000")
	if msg, err := rec.CombinedOutput(); err != nil {
		t.Skipf("perf record -e cpu-clock: %v\n%s", err, msg)
	}
	got := profgenBolt(t, "bolt", "--binary", bin, "--perfdata", perfData)
	if !strings.HasPrefix(got[0], "no_lbr cpu-clock") {
		t.Fatalf("first line %q, want no_lbr cpu-clock:", got[0])
	}
	sameLineSets(t, got, perf2boltLines(t, bin, "--ba", "-p", perfData))
}
