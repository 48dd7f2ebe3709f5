package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	testutil.Tools(t, tools...)
}

// TestValgrind traces the committed wordfreq binary under valgrind, checks
// that the combined scripts agree with the per-process references, that
// the run is deterministic, and that llvm-profgen-19 accepts the output.
func TestValgrind(t *testing.T) {
	needTools(t, "valgrind", "objcopy")
	bin, err := filepath.Abs("../../testdata/programs/bin/wordfreq")
	if err != nil {
		t.Fatal(err)
	}
	dirs := traceTwice(t, func(dir string) []string {
		return []string{"-binary", bin, "-period", "500", "-flags", "typed", "-perfdata",
			"-single", dir + "/single.script", "-multi", dir + "/multi",
			"-fork", dir + "/fork", "-fork-after", "100", "-full", "-reuse", dir + "/reuse", "-reuse-every", "200",
			"-hybrid-single", dir + "/hybrid.script", "-hybrid-multi", dir + "/hybrid-multi",
			"--", "2000"}
	})
	for _, prefix := range []string{"multi", "fork", "reuse", "hybrid-multi"} {
		checkReferences(t, dirs[0], prefix)
		checkFull(t, dirs[0], prefix)
	}
	if testutil.HasTool("perf") {
		checkPerfData(t, dirs[0])
	}
	testutil.Tool(t, "llvm-profgen-19")
	for _, s := range []string{"single.script", "multi.script", "hybrid.script"} {
		t.Run(s, func(t *testing.T) { checkProfgen(t, bin, filepath.Join(dirs[0], s), s != "multi.script") })
	}
	refs, _ := filepath.Glob(filepath.Join(dirs[0], "fork.*.script"))
	for _, ref := range refs {
		checkProfgen(t, bin, ref, true)
	}
}

// traceTwice runs lbrgen twice with the arguments args gives for an
// output directory, checks that both runs wrote the same bytes and returns
// the directories.
func traceTwice(t *testing.T, args func(dir string) []string) [2]string {
	t.Helper()
	var dirs [2]string
	for i := range dirs {
		dirs[i] = t.TempDir()
		o, err := parseFlags(args(dirs[i]))
		if err != nil {
			t.Fatal(err)
		}
		if err := run(o); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(dumpDir(t, dirs[0]), dumpDir(t, dirs[1])) {
		t.Error("two runs gave different outputs")
	}
	return dirs
}

// TestTestdata checks the traces of `make testdata` (testutil.DataDir):
// llvm-profgen-19 accepts every single-process script, and the combined
// scripts agree with their references.
func TestTestdata(t *testing.T) {
	progs, _ := filepath.Glob(filepath.Join(testutil.DataDir(t, "lbr"), "*", "single.script"))
	if len(progs) == 0 {
		t.Skip("no LBR test data (make testdata)")
	}
	for _, single := range progs {
		prog := filepath.Dir(single)
		t.Run(filepath.Base(prog), func(t *testing.T) {
			for _, prefix := range []string{"multi", "fork", "reuse", "hybrid-multi"} {
				if _, err := os.Stat(filepath.Join(prog, prefix+".script")); err == nil {
					checkReferences(t, prog, prefix)
					checkFull(t, prog, prefix)
				}
			}
			if testutil.HasTool("perf") {
				checkPerfData(t, prog)
			}
			if testutil.HasTool("llvm-profgen-19") {
				checkProfgen(t, filepath.Join(prog, "binary"), single, true)
				if hybrid := filepath.Join(prog, "hybrid.script"); fileExists(hybrid) {
					checkProfgen(t, filepath.Join(prog, "binary"), hybrid, true)
				}
			}
		})
	}
}

// checkProfgen runs llvm-profgen-19 --skip-symbolization on script and
// checks it accepts it (or, for a PID-column script, rejects it, as the
// released version does) and finds ranges, or for a hybrid
// script, calling contexts.
func checkProfgen(t *testing.T, bin, script string, accept bool) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "unsym")
	cmd := exec.Command("llvm-profgen-19", "--binary", bin, "--perfscript", script, "--skip-symbolization", "-o", out)
	msg, err := cmd.CombinedOutput()
	if !accept {
		if err == nil {
			t.Errorf("llvm-profgen-19 accepted the PID-column script %s", script)
		}
		return
	}
	if err != nil {
		t.Fatalf("llvm-profgen-19 on %s: %v\n%s", script, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(filepath.Base(script), "hybrid") {
		// A context-sensitive profile: [caller:site @ callee] headers.
		if n := strings.Count(string(data), " @ "); n < 3 {
			t.Errorf("%s: llvm-profgen-19 found %d calling contexts, want a CS profile", script, n)
		}
		return
	}
	// A small program (coldsplit-gcc: one hot loop) has a handful of
	// ranges; what counts is that the released tool read the trace.
	lines := strings.Split(string(data), "\n")
	if n, _ := strconv.Atoi(lines[0]); n < 1 {
		t.Errorf("%s: llvm-profgen-19 found no ranges", script)
	}
}

// checkReferences checks that PREFIX.script, with the PID column removed,
// holds the same sample lines per PID as the PID's references, in order,
// and that every reference is listed in PREFIX.procs.
func checkReferences(t *testing.T, dir, prefix string) {
	t.Helper()
	combined := samplesByPID(t, filepath.Join(dir, prefix+".script"), true)
	refs, err := filepath.Glob(filepath.Join(dir, prefix+".*.script"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(refs, func(i, j int) bool { return refOrder(refs[i]) < refOrder(refs[j]) })
	fromRefs := map[int][]string{}
	stack := strings.HasPrefix(prefix, "stack") // call-stack references keep the columns: a sample needs its header line
	for _, ref := range refs {
		pid := refOrder(ref) >> 16
		col := -1
		if stack {
			col = pid
		}
		fromRefs[pid] = append(fromRefs[pid], samplesByPID(t, ref, stack)[col]...)
	}
	if len(combined) != len(fromRefs) || len(combined) < 2 {
		t.Fatalf("%s: %d PIDs in the combined script, %d in the references", prefix, len(combined), len(fromRefs))
	}
	for pid, lines := range combined {
		if strings.Join(lines, "\n") != strings.Join(fromRefs[pid], "\n") {
			t.Errorf("%s: samples of PID %d differ from its references", prefix, pid)
		}
	}
	procs, err := os.ReadFile(filepath.Join(dir, prefix+".procs"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(procs), "\n") - 1; got != len(refs) {
		t.Errorf("%s.procs lists %d processes, %d references exist", prefix, got, len(refs))
	}
}

// refOrder sorts PREFIX.<pid>[-<n>].script by PID, then n.
func refOrder(path string) int {
	f := strings.Split(filepath.Base(path), ".")
	pid, n, _ := strings.Cut(f[1], "-")
	p, _ := strconv.Atoi(pid)
	k, _ := strconv.Atoi(n)
	return p<<16 | k
}

// samplesByPID reads the samples of a script, grouped by the PID column
// (-1 without one), the column removed; a hybrid sample's lines are joined.
func samplesByPID(t *testing.T, path string, pidCol bool) map[int][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[int][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	cur := -1
	prev := ""
	for sc.Scan() {
		line := sc.Text()
		afterFrame := strings.HasPrefix(prev, "\t")
		prev = line
		if strings.Contains(line, "PERF_RECORD_") || line == "" && afterFrame { // a call-stack sample ends with an empty line
			continue
		}
		if isContinuation(line) && len(m[cur]) > 0 { // a hybrid sample's frames and branches
			m[cur][len(m[cur])-1] += "\n" + line
			continue
		}
		pid := -1
		if pidCol {
			if len(line) < 6 {
				t.Fatalf("%s: short line %q", path, line)
			}
			col, rest, _ := strings.Cut(strings.TrimLeft(line, " "), " ")
			pid, err = strconv.Atoi(col)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			line = rest
		}
		m[pid] = append(m[pid], line)
		cur = pid
	}
	if err := sc.Err(); err != nil {
		t.Fatal(fmt.Errorf("%s: %w", path, err))
	}
	return m
}

// checkFull checks that PREFIX-full.script, if there is one, is
// PREFIX.script with perf's default leading columns for the PID column.
func checkFull(t *testing.T, dir, prefix string) {
	t.Helper()
	full, err := os.ReadFile(filepath.Join(dir, prefix+"-full.script"))
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	pid, err := os.ReadFile(filepath.Join(dir, prefix+".script"))
	if err != nil {
		t.Fatal(err)
	}
	fl, pl := strings.Split(string(full), "\n"), strings.Split(string(pid), "\n")
	if len(fl) != len(pl) {
		t.Fatalf("%s: %d lines in full, %d in pid layout", prefix, len(fl), len(pl))
	}
	for i := range fl {
		f, p := fl[i], pl[i]
		if f == "" && p == "" {
			continue
		}
		_, frest, _ := strings.Cut(f, ": ") // time
		frest = strings.TrimPrefix(frest, "cycles:u: ")
		fpid, _, _ := strings.Cut(strings.TrimLeft(f[17:], " "), "/")
		ppid, prest, _ := strings.Cut(strings.TrimLeft(p, " "), " ")
		if frest != prest || fpid != ppid {
			t.Fatalf("%s line %d:\nfull %q\npid  %q", prefix, i+1, f, p)
		}
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
