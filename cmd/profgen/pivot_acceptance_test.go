package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// Issue 25's acceptance: a recording cut into 16 parts by process and by
// time, each part converted with --skip-symbolization, the parts' address
// profiles merged in three tree shapes and orders, then symbolized, gives
// the bytes of the one-pass conversion.

// pivotRecording is a perf script recording, its binary and the formats
// compared. dir is under the large test data, "" for the repository's.
// Where viaUnsymbolized is set, the one-pass conversion compared with is
// that of the whole recording's unsymbolized profile: for line-based CS
// profiles llvm-profgen-19 itself writes other bytes from its unsymbolized
// profile than from the recording (its pre-inliner marks other contexts
// ContextShouldBeInlined), and profgen matches it both ways.
type pivotRecording struct {
	name, dir, script, binary string
	formats                   []string
	viaUnsymbolized           bool
}

var pivotRecordings = []pivotRecording{
	// call stacks (perf record -g), forky: two processes, always here
	{"forky call stacks", "", forkyDir + "forky.default-tasks.script", forkyDir + "forky", []string{"pprof", "text", "extbinary"}, false},
	// LBR of four processes of sqlite at four ASLR bases
	{"sqlite LBR, 4 processes", "lbr/sqlite", "multi.script", "binary", []string{"text", "extbinary"}, false},
	// hybrid (perf record -b -g): CS profiles, line-based and probe-based
	{"sqlite hybrid CS", "lbr/sqlite", "hybrid.script", "binary", []string{"text", "extbinary"}, true},
	{"sqlite hybrid CS, probes", "probe/sqlite", "hybrid.script", "binary", []string{"text", "extbinary"}, false},
	// hybrid samples of 4 processes at 4 ASLR bases (lbrgen: tail calls,
	// deep recursion)
	{"tailcall hybrid CS, 4 processes", "cs/tailcall", "hybrid-multi.script", "binary", []string{"text", "extbinary"}, true},
	{"tailcall hybrid CS, probes, 4 processes", "probe/tailcall", "hybrid-multi.script", "binary", []string{"text", "extbinary"}, false},
	// call stacks of a larger forky run, and of a Go program
	{"forky call stacks, big", "callstack", "big.script", "forky", []string{"pprof", "text", "extbinary"}, false},
	{"Go call stacks", "nonpie", "nonpiego.script", "nonpiego", []string{"pprof"}, false},
}

func TestPivotPartsMergeToOnePass(t *testing.T) {
	for _, rec := range pivotRecordings {
		t.Run(rec.name, func(t *testing.T) {
			script, bin := rec.paths(t)
			dir := t.TempDir()
			parts := cutScript(t, script, dir, 16)
			addrs := make([]string, len(parts))
			for i, p := range parts {
				addrs[i] = filepath.Join(dir, fmt.Sprintf("part%02d.addr", i))
				profgen(t, "-q", "--binary", bin, "--perfscript", p, "--skip-symbolization", "-o", addrs[i])
			}
			merged := mergeInShapes(t, dir, addrs)
			whole := filepath.Join(dir, "whole.addr")
			profgen(t, "-q", "--binary", bin, "--perfscript", script, "--skip-symbolization", "-o", whole)
			if !sameFile(t, whole, merged) {
				out, _ := exec.Command("diff", whole, merged).CombinedOutput()
				t.Errorf("the merged parts' address profile differs from the whole recording's:\n%.1500s", out)
			}
			input := []string{"--perfscript", script}
			if rec.viaUnsymbolized {
				input = []string{"--unsymbolized-profile", whole}
			}
			for _, format := range rec.formats {
				onePass := filepath.Join(dir, "one-pass."+format)
				profgen(t, append([]string{"-q", "--binary", bin, "--format", format, "-o", onePass}, input...)...)
				fromParts := filepath.Join(dir, "parts."+format)
				profgen(t, "-q", "--binary", bin, "--unsymbolized-profile", merged, "--format", format, "-o", fromParts)
				if !sameFile(t, onePass, fromParts) {
					t.Errorf("%s: the merged parts' profile differs from the one-pass conversion", format)
				}
			}
		})
	}
}

// paths returns the recording's script and binary, skipping the test when
// the large test data is missing.
func (r pivotRecording) paths(t *testing.T) (script, bin string) {
	if r.dir == "" {
		return r.script, r.binary
	}
	dir := testutil.DataDir(t, r.dir)
	script, bin = filepath.Join(dir, r.script), filepath.Join(dir, r.binary)
	for _, p := range []string{script, bin} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("no test data: %v", err)
		}
	}
	return script, bin
}

// mergeInShapes merges the address profiles in three tree shapes and
// orders, checks that they give the same bytes, and returns one.
func mergeInShapes(t *testing.T, dir string, addrs []string) string {
	t.Helper()
	n := 0
	mergeTo := func(in []string) string {
		n++
		out := filepath.Join(dir, fmt.Sprintf("merge%02d.addr", n))
		if stderr, err := profgenMerge(t, append([]string{"-o", out}, in...)...); err != nil {
			t.Fatalf("profgen merge: %v\n%s", err, stderr)
		}
		return out
	}
	flat := mergeTo(addrs)
	reversed := slices.Clone(addrs)
	slices.Reverse(reversed)
	for len(reversed) > 1 { // a balanced binary tree of the reversed order
		var next []string
		for i := 0; i < len(reversed); i += 2 {
			next = append(next, mergeTo(reversed[i:min(i+2, len(reversed))]))
		}
		reversed = next
	}
	shuffled := make([]string, len(addrs)) // a left-deep chain, groups of 3, stride 5
	for i := range addrs {
		shuffled[i] = addrs[i*5%len(addrs)]
	}
	chain := mergeTo(shuffled[:3])
	for i := 3; i < len(shuffled); i += 3 {
		chain = mergeTo(append([]string{mergeTo(shuffled[i:min(i+3, len(shuffled))])}, chain))
	}
	if !sameFile(t, flat, reversed[0]) || !sameFile(t, flat, chain) {
		t.Fatalf("merges of the parts in different shapes differ: %s, %s, %s", flat, reversed[0], chain)
	}
	return flat
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(x, y)
}

// cutScript cuts the perf script text at path into n part files in dir:
// every side-band record (PERF_RECORD_*) goes to every part, each sample
// to one, by its place in time (16 runs of consecutive samples) and its
// process (turning the run's part by the process's rank).
func cutScript(t *testing.T, path, dir string, n int) []string {
	t.Helper()
	units := scriptUnits(t, path)
	samples := 0
	for _, u := range units {
		if !u.sideBand {
			samples++
		}
	}
	bufs := make([]bytes.Buffer, n)
	counts := make([]int, n)
	pids := map[string]int{}
	i := 0
	for _, u := range units {
		if u.sideBand {
			for p := range bufs {
				bufs[p].WriteString(u.text)
			}
			continue
		}
		rank, ok := pids[u.pid]
		if !ok {
			rank = len(pids)
			pids[u.pid] = rank
		}
		p := (i*n/samples + rank) % n
		bufs[p].WriteString(u.text)
		counts[p]++
		i++
	}
	if slices.Contains(counts, 0) {
		t.Fatalf("%s: a part without samples: %v samples a part", path, counts)
	}
	paths := make([]string, n)
	for p := range bufs {
		paths[p] = filepath.Join(dir, fmt.Sprintf("part%02d.script", p))
		if err := os.WriteFile(paths[p], bufs[p].Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// scriptUnit is a side-band record or a sample of perf script text, its
// lines with their line ends.
type scriptUnit struct {
	text     string
	sideBand bool
	pid      string // the first number of the sample's first line
}

var (
	firstNumber = regexp.MustCompile(`(?:^|\s)(\d+)(?:/\d+)?\s`)
	branchEntry = regexp.MustCompile(`0x[0-9a-f]+/0x[0-9a-f]+/`)
)

// scriptUnits splits perf script text into side-band records and samples.
// A sample ends after its branch stack, at a blank line (after a call
// chain), or where a line without indentation (the next sample's header)
// starts; blank lines stay with the sample before them.
func scriptUnits(t *testing.T, path string) []scriptUnit {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var units []scriptUnit
	var sample scriptSample
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<24)
	for s.Scan() {
		line := s.Text()
		switch {
		case strings.Contains(line, "PERF_RECORD_"):
			units = sample.flush(units)
			units = append(units, scriptUnit{text: line + "\n", sideBand: true})
		case strings.TrimSpace(line) == "":
			sample.text.WriteString("\n")
			if sample.pid != nil {
				units = sample.flush(units)
			}
		default:
			if line[0] != ' ' && line[0] != '\t' {
				units = sample.flush(units)
			}
			sample.add(line)
			if branchEntry.MatchString(line) {
				units = sample.flush(units)
			}
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return sample.flush(units)
}

// scriptSample is the sample being read: its text, and its process once
// it has a line that is not blank.
type scriptSample struct {
	text strings.Builder
	pid  *string
}

func (s *scriptSample) add(line string) {
	if s.pid == nil {
		pid := ""
		if m := firstNumber.FindStringSubmatch(line + " "); m != nil {
			pid = m[1]
		}
		s.pid = &pid
	}
	s.text.WriteString(line + "\n")
}

// flush appends the sample read, if any, to units. Blank lines before any
// sample go with the next.
func (s *scriptSample) flush(units []scriptUnit) []scriptUnit {
	if s.pid == nil {
		return units
	}
	units = append(units, scriptUnit{text: s.text.String(), pid: *s.pid})
	s.text.Reset()
	s.pid = nil
	return units
}

// TestMergeAddressRefusals: profgen merge of address profiles refuses, in
// one line, other kinds mixed in and llvm-profdata's output options.
func TestMergeAddressRefusals(t *testing.T) {
	dir := t.TempDir()
	addr := filepath.Join(dir, "a.addr")
	profgen(t, "-q", "--binary", forkyDir+"forky", "--perfscript", forkyDir+"forky.default-tasks.script", "--skip-symbolization", "-o", addr)
	lbr := filepath.Join(dir, "l.raw")
	if err := os.WriteFile(lbr, []byte("0\n0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"LBR and call stacks", []string{addr, lbr}, "different kinds"},
		{"sample profile", []string{addr, "../../internal/sampleprof/testdata/inline.txt"}, "cannot merge address profiles"},
		{"--text", []string{"--text", addr}, "--text does not apply"},
		{"--sample", []string{"--sample", addr}, "--sample does not apply"},
		{"weights", []string{"--weighted-input=2," + addr}, "unweighted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stderr, err := profgenMerge(t, append([]string{"-o", out}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line with %q\n%s", err, tc.want, stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("an output was written")
			}
		})
	}
}
