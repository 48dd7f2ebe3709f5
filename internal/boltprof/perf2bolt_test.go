package boltprof

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/perfdata"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/testutil"
)

const perf2bolt = "/usr/lib/llvm-22/bin/perf2bolt"

// tracesOf reads an LBR perf.data with profgen's reader and address-space
// table and counts its traces (what the driver's LBR path will do).
func tracesOf(t *testing.T, bin *binary.File, perfData string) Traces {
	return tracesKeeping(t, bin, perfData, nil)
}

// tracesKeeping is tracesOf counting only the branch-stack entries keep
// accepts (binary addresses; nil: all).
func tracesKeeping(t *testing.T, bin *binary.File, perfData string, keep func(from, to uint64) bool) Traces {
	t.Helper()
	src, err := perfdata.OpenNative(perfData, perfdata.Content{BranchStack: true})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	table := addrspace.New(addrspace.Binary{Path: bin.Path(), PreferredBase: bin.PreferredBase(), TextOffset: bin.TextSegmentOffset()}, nil)
	ts := Traces{}
	for src.Next() {
		rec := src.Record()
		if rec.Kind != record.KindSample {
			table.Update(rec)
			continue
		}
		if delta, why := table.Delta(rec.HasPID, rec.PID); why == addrspace.OK {
			br, mispred := keptEntries(rec.Sample, delta, keep)
			ts.AddStack(br, mispred, delta, rec.Sample.Count)
		}
	}
	if err := src.Err(); err != nil {
		t.Fatal(err)
	}
	return ts
}

// keptEntries are the entries of s's branch stack, with their mispredict
// flags, that keep accepts.
func keptEntries(s record.Sample, delta uint64, keep func(from, to uint64) bool) ([]record.Branch, []bool) {
	if keep == nil {
		return s.Branches, s.Mispredicted
	}
	var br []record.Branch
	var mispred []bool
	for i, b := range s.Branches {
		if keep(b.From+delta, b.To+delta) {
			br = append(br, b)
			mispred = append(mispred, i < len(s.Mispredicted) && s.Mispredicted[i])
		}
	}
	return br, mispred
}

// compareWithPerf2bolt compares the fdata of a perf.data with perf2bolt's.
func compareWithPerf2bolt(t *testing.T, binPath, perfData string) {
	bin, fs := openBinary(t, binPath)
	fd := BuildFdata(bin, fs, tracesOf(t, bin, perfData))
	t.Logf("traces: %d invalid, %d out of range", fd.Invalid, fd.OutOfRange)
	compareLines(t, fdataLines(t, fd), runPerf2bolt(t, binPath, "-p", perfData))
}

func fdataLines(t *testing.T, fd *Fdata) []string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := fd.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return lines(buf.Bytes())
}

// runPerf2bolt runs perf2bolt-22 with args and returns the lines of the
// fdata it writes.
func runPerf2bolt(t *testing.T, binPath string, args ...string) []string {
	t.Helper()
	fdata, _ := perf2boltTraces(t, binPath, args...)
	return fdata
}

// traceDiagnostics are perf2bolt's counts of the traces it could not use:
// mismatching the disassembled functions, and out of range.
type traceDiagnostics struct{ invalid, outOfRange uint64 }

// perf2boltTraces runs perf2bolt-22 with args and returns the lines of
// the fdata it writes and its trace diagnostics.
func perf2boltTraces(t *testing.T, binPath string, args ...string) ([]string, traceDiagnostics) {
	t.Helper()
	testutil.Tools(t, perf2bolt, "perf")
	out := filepath.Join(t.TempDir(), "out.fdata")
	cmd := exec.Command(perf2bolt, append(append(args, "-o", out), binPath)...)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("perf2bolt: %v\n%s", err, msg)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var d traceDiagnostics
	for _, l := range lines(msg) {
		fmt.Sscanf(l, "PERF2BOLT: traces mismatching disassembled function contents: %d", &d.invalid)
		fmt.Sscanf(l, "PERF2BOLT: out of range traces involving unknown regions: %d", &d.outOfRange)
	}
	return lines(b), d
}

func lines(b []byte) []string {
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// compareLines compares two files as sets of lines and logs the counts of
// equal and differing lines, with examples.
func compareLines(t *testing.T, got, want []string) {
	t.Helper()
	g, w := toSet(got), toSet(want)
	var onlyGot, onlyWant []string
	for l := range g {
		if !w[l] {
			onlyGot = append(onlyGot, l)
		}
	}
	for l := range w {
		if !g[l] {
			onlyWant = append(onlyWant, l)
		}
	}
	slices.Sort(onlyGot)
	slices.Sort(onlyWant)
	t.Logf("lines: %d equal, %d only profgen's, %d only perf2bolt's (of %d / %d)",
		len(g)-len(onlyGot), len(onlyGot), len(onlyWant), len(got), len(want))
	if len(onlyGot)+len(onlyWant) > 0 {
		t.Errorf("fdata differs from perf2bolt's:\nonly profgen's:\n%s\nonly perf2bolt's:\n%s",
			strings.Join(head(onlyGot, 30), "\n"), strings.Join(head(onlyWant, 30), "\n"))
	}
}

func toSet(ls []string) map[string]bool {
	s := map[string]bool{}
	for _, l := range ls {
		s[l] = true
	}
	return s
}

func head(s []string, n int) []string { return s[:min(n, len(s))] }

func openBinary(t *testing.T, path string) (*binary.File, Funcs) {
	t.Helper()
	bin, err := binary.Open(path, binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bin.Close() })
	fs, err := FuncsOf(bin)
	if err != nil {
		t.Fatal(err)
	}
	return bin, fs
}

// TestFdataMatchesPerf2bolt compares the fdata of lbrgen's exact LBR
// recordings (one process; 4 processes at 4 bases; a process and its
// forked children) with perf2bolt-22's, as sets of lines.
func TestFdataMatchesPerf2bolt(t *testing.T) {
	for _, tc := range []struct{ prog, data string }{
		{"sqlite", "single"}, {"sqlite", "multi"}, {"sqlite", "fork"},
		{"wordfreq", "single"}, {"recurse", "single"}, {"wordfreq-nopie", "single"}, {"wordfreq-gcc", "single"},
	} {
		t.Run(tc.prog+"/"+tc.data, func(t *testing.T) {
			dir := testutil.DataDir(t, "lbr", tc.prog)
			binPath, perfData := filepath.Join(dir, "binary"), filepath.Join(dir, tc.data+".perf.data")
			compareWithPerf2bolt(t, binPath, perfData)
		})
	}
}

// TestPreaggMatchesPerf2bolt: perf2bolt-22 --pa reads the pre-aggregated
// file into the same fdata as perf2bolt-22 on the perf.data.
func TestPreaggMatchesPerf2bolt(t *testing.T) {
	for _, tc := range []struct{ prog, data string }{
		{"sqlite", "single"}, {"sqlite", "multi"}, {"wordfreq-nopie", "single"}, {"wordfreq-gcc", "single"},
	} {
		t.Run(tc.prog+"/"+tc.data, func(t *testing.T) {
			dir := testutil.DataDir(t, "lbr", tc.prog)
			binPath, perfData := filepath.Join(dir, "binary"), filepath.Join(dir, tc.data+".perf.data")
			comparePreagg(t, binPath, perfData)
		})
	}
}

// comparePreagg compares perf2bolt's fdata of profgen's pre-aggregated
// records of a perf.data with perf2bolt's of the perf.data.
func comparePreagg(t *testing.T, binPath, perfData string) {
	bin, fs := openBinary(t, binPath)
	var buf bytes.Buffer
	if err := WritePreagg(&buf, bin, fs, tracesOf(t, bin, perfData)); err != nil {
		t.Fatal(err)
	}
	preagg := filepath.Join(t.TempDir(), "preagg.txt")
	if err := os.WriteFile(preagg, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	compareLines(t, runPerf2bolt(t, binPath, "--pa", "-p", preagg), runPerf2bolt(t, binPath, "-p", perfData))
}

// basicSamplesOf reads the IP samples of a perf.data.
func basicSamplesOf(t *testing.T, bin *binary.File, perfData string) *BasicSamples {
	t.Helper()
	src, err := perfdata.OpenNative(perfData, perfdata.Content{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	table := addrspace.New(addrspace.Binary{Path: bin.Path(), PreferredBase: bin.PreferredBase(), TextOffset: bin.TextSegmentOffset()}, nil)
	s := NewBasicSamples()
	for src.Next() {
		rec := src.Record()
		if rec.Kind != record.KindSample {
			table.Update(rec)
			continue
		}
		if delta, why := table.Delta(rec.HasPID, rec.PID); why == addrspace.OK && rec.Sample.HasIP {
			s.Add(rec.Sample.IP+delta, rec.Sample.Event, rec.Sample.Count)
		}
	}
	if err := src.Err(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestNoLBRMatchesPerf2bolt compares the no-LBR fdata of IP samples with
// perf2bolt-22 --ba's.
func TestNoLBRMatchesPerf2bolt(t *testing.T) {
	for _, tc := range []struct{ prog, data string }{
		{"sqlite", "single"}, {"sqlite", "multi"}, {"wordfreq-nopie", "single"},
	} {
		t.Run(tc.prog+"/"+tc.data, func(t *testing.T) {
			dir := testutil.DataDir(t, "lbr", tc.prog)
			binPath, perfData := filepath.Join(dir, "binary"), filepath.Join(dir, tc.data+".perf.data")
			bin, fs := openBinary(t, binPath)
			var buf bytes.Buffer
			out, err := WriteNoLBR(&buf, fs, basicSamplesOf(t, bin, perfData))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d samples out of range", out)
			compareLines(t, lines(buf.Bytes()), runPerf2bolt(t, binPath, "--ba", "-p", perfData))
		})
	}
}
