package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// checkPerfData runs perf script on every perf.data lbrgen wrote in dir and
// checks that it prints what lbrgen's text beside it holds: the same
// records (MMAP, MMAP2, COMM, FORK, EXIT) and samples (PID, IP, call
// chain, branch entries) in the same order; with perf's default leading
// columns too when there is a -full script; and with perf's default
// fields, without a word on stderr.
func checkPerfData(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.perf.data"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no perf.data in %s (%v)", dir, err)
	}
	for _, data := range files {
		name := strings.TrimSuffix(data, ".perf.data")
		t.Run(filepath.Base(name), func(t *testing.T) {
			want := readFile(t, name+".script")
			got := perfScript(t, data, "-F", "pid,ip,brstack", "--show-mmap-events", "--show-task-events")
			compareScripts(t, got, want)
			if full, err := os.ReadFile(name + "-full.script"); err == nil {
				got := perfScript(t, data, "-F", "comm,pid,tid,cpu,time,event,ip,brstack", "--show-mmap-events", "--show-task-events")
				compareFull(t, got, string(full))
			}
			def := perfScript(t, data)
			if n, m := strings.Count(def, " cycles:u: "), countSamples(want); n != m {
				t.Errorf("perf script with default fields printed %d samples, lbrgen wrote %d", n, m)
			}
		})
	}
}

// perfScript runs perf script on data; anything on stderr is an error,
// but for perf's note that it cannot unwind an AArch64 recording's stacks
// from their contents (lbrgen's call chains need no unwinding).
func perfScript(t *testing.T, data string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("perf", append([]string{"script", "-i", data}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if msg := unwindNote.ReplaceAllString(stderr.String(), ""); err != nil || msg != "" {
		t.Fatalf("perf script -i %s %s: %v\n%s", data, strings.Join(args, " "), err, msg)
	}
	return stdout.String()
}

var unwindNote = regexp.MustCompile(`(?m)^unwind: target platform=arm64 is not supported\n`)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compareScripts compares perf's -F pid,ip,brstack output with lbrgen's
// text, line by line. lbrgen's single-process layout has no PID column:
// perf's is then dropped (and must be the same on every line). perf 6.1
// prints call-chain addresses relative to their DSO (file offsets): those
// of lbrgen's text are mapped through the process's MMAP2 records.
func compareScripts(t *testing.T, perf, lbrgen string) {
	t.Helper()
	got, want := lines(perf), lines(lbrgen)
	pidCol := !strings.HasPrefix(lbrgen, "PERF_RECORD_")
	if !pidCol {
		got = dropPIDs(t, got)
	}
	want = relativeChains(t, want, pidCol)
	if len(got) != len(want) {
		t.Errorf("perf printed %d lines, lbrgen wrote %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if g, w := normBranches(got[i]), normBranches(want[i]); g != w {
			t.Fatalf("line %d:\nperf   %q\nlbrgen %q", i+1, g, w)
		}
	}
}

func lines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// isContinuation says whether a line continues a sample (a call-chain
// frame or the branch stack after one): it has no leading columns.
func isContinuation(l string) bool {
	return strings.HasPrefix(l, "\t") || strings.HasPrefix(l, " 0x")
}

// splitPID splits the PID column ("%7d ") off a line.
func splitPID(l string) (int, string, bool) {
	s := strings.TrimLeft(l, " ")
	col, rest, ok := strings.Cut(s, " ")
	pid, err := strconv.Atoi(col)
	return pid, rest, ok && err == nil
}

func dropPIDs(t *testing.T, ls []string) []string {
	t.Helper()
	out := make([]string, len(ls))
	first := -1
	for i, l := range ls {
		if isContinuation(l) {
			out[i] = l
			continue
		}
		pid, rest, ok := splitPID(l)
		if !ok || first >= 0 && pid != first {
			t.Fatalf("perf line %d: %q: want the PID column of one process", i+1, l)
		}
		first, out[i] = pid, rest
	}
	return out
}

// dsoMap is a mapping as perf uses it to make addresses DSO-relative.
type dsoMap struct{ start, end, pgoff uint64 }

var mmap2Re = regexp.MustCompile(`PERF_RECORD_MMAP2 \d+/\d+: \[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ (0x[0-9a-f]+|0) `)
var forkRe = regexp.MustCompile(`PERF_RECORD_FORK\((\d+):\d+\):\((\d+):\d+\)`)

// relativeChains rewrites the call-chain frames of lbrgen's text as perf
// 6.1 prints them: address - map start + map offset. The process table
// follows the records: MMAP2 adds, FORK copies the parent's, exec resets.
func relativeChains(t *testing.T, ls []string, pidCol bool) []string {
	t.Helper()
	maps := map[int][]dsoMap{}
	cur := -1
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l
		if strings.HasPrefix(l, "\t") {
			a, err := strconv.ParseUint(strings.TrimSpace(l), 16, 64)
			if err != nil {
				t.Fatalf("lbrgen line %d: %q", i+1, l)
			}
			out[i] = "\t" + fmt.Sprintf("%16x", relative(maps[cur], a))
			continue
		}
		if isContinuation(l) {
			continue
		}
		pid, rest := -1, l
		if pidCol {
			var ok bool
			if pid, rest, ok = splitPID(l); !ok {
				t.Fatalf("lbrgen line %d: %q: no PID column", i+1, l)
			}
		}
		cur = pid
		trackMaps(maps, pid, rest)
	}
	return out
}

func trackMaps(maps map[int][]dsoMap, pid int, rest string) {
	if m := mmap2Re.FindStringSubmatch(rest); m != nil {
		start, _ := strconv.ParseUint(m[1], 16, 64)
		n, _ := strconv.ParseUint(m[2], 16, 64)
		off, _ := strconv.ParseUint(strings.TrimPrefix(m[3], "0x"), 16, 64)
		maps[pid] = append(maps[pid], dsoMap{start, start + n, off})
	} else if m := forkRe.FindStringSubmatch(rest); m != nil {
		child, _ := strconv.Atoi(m[1])
		parent, _ := strconv.Atoi(m[2])
		maps[child] = append([]dsoMap(nil), maps[parent]...)
	} else if strings.HasPrefix(rest, "PERF_RECORD_COMM exec") {
		maps[pid] = nil
	}
}

func relative(ms []dsoMap, a uint64) uint64 {
	for _, m := range ms {
		if a >= m.start && a < m.end {
			return a - m.start + m.pgoff
		}
	}
	return a
}

// branchRe matches a brstack entry in any of lbrgen's layouts and in perf
// 6.1's: FROM/TO/pred/tx/abort/cycles, then the type (perf: "" when
// unknown; lbrgen typed: "-"), then lbrgen's speculation field.
var branchRe = regexp.MustCompile(`(0x[0-9a-f]+/0x[0-9a-f]+/[PM-]/[X-]/[A-]/\d+)(/[A-Z_-]*)?(/[A-Z_-]*)? `)

// normBranches writes every entry as FROM/TO/pred/tx/abort/cycles/type,
// the type empty when unknown.
func normBranches(l string) string {
	return branchRe.ReplaceAllStringFunc(l, func(e string) string {
		m := branchRe.FindStringSubmatch(e)
		typ := strings.TrimPrefix(m[2], "/")
		if typ == "-" {
			typ = ""
		}
		return m[1] + "/" + typ + " "
	})
}

// compareFull compares perf's -F comm,pid,tid,cpu,time,event,ip,brstack
// output with lbrgen's -full script. A process with no COMM record (the
// shell) has no name in perf (":PID"); lbrgen names it.
func compareFull(t *testing.T, perf, lbrgen string) {
	t.Helper()
	got, want := lines(perf), lines(lbrgen)
	if len(got) != len(want) {
		t.Errorf("perf printed %d lines, lbrgen wrote %d (-full)", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		g, w := normBranches(got[i]), normBranches(want[i])
		if len(g) >= 16 && len(w) >= 16 && strings.HasPrefix(strings.TrimLeft(g[:16], " "), ":") {
			g, w = g[16:], w[16:]
		}
		if g != w {
			t.Fatalf("-full line %d:\nperf   %q\nlbrgen %q", i+1, g, w)
		}
	}
}

// countSamples counts the samples of a script: lines holding branch
// entries.
func countSamples(script string) int {
	n := 0
	for _, l := range lines(script) {
		if strings.Contains(l, "/0x") {
			n++
		}
	}
	return n
}

// TestPerfDataTiny writes every layout of the tiny trace as perf.data and
// checks it with perf; two runs give the same bytes.
func TestPerfDataTiny(t *testing.T) {
	needTools(t, "perf")
	var dirs [2]string
	for i := range dirs {
		dirs[i] = t.TempDir()
		out := dirs[i]
		runTiny(t, []string{"-binary", "tiny", "-lackey", "testdata/tiny.lackey", "-perfdata", "-flags", "typed",
			"-period", "2", "-depth", "3", "-maps", "testdata/tiny.maps",
			"-single", out + "/single.script", "-multi", out + "/multi", "-procs", "2", "-full",
			"-fork", out + "/fork", "-fork-after", "2", "-reuse", out + "/reuse", "-reuse-every", "1",
			"-hybrid-single", out + "/hybrid.script", "-hybrid-multi", out + "/hybrid-multi"})
	}
	if !bytes.Equal(dumpDir(t, dirs[0]), dumpDir(t, dirs[1])) {
		t.Error("two runs gave different outputs")
	}
	checkPerfData(t, dirs[0])
}

func TestNormBranches(t *testing.T) {
	tests := []struct{ in, want string }{
		{" 0x1/0x2/P/-/-/0  0x3/0x4/M/-/-/7 ", " 0x1/0x2/P/-/-/0/  0x3/0x4/M/-/-/7/ "},                  // plain
		{" 0x1/0x2/M/-/-/12/COND/-  0x3/0x4/P/-/-/1/-/- ", " 0x1/0x2/M/-/-/12/COND  0x3/0x4/P/-/-/1/ "}, // typed
		{" 0x1/0x2/P/-/-/0//NON_SPEC_CORRECT_PATH ", " 0x1/0x2/P/-/-/0/ "},                              // spec
		{" 0x1/0x2/P/-/-/31/  0x3/0x4/M/-/-/2/IND ", " 0x1/0x2/P/-/-/31/  0x3/0x4/M/-/-/2/IND "},        // perf 6.1
	}
	for _, tt := range tests {
		if got := normBranches(tt.in); got != tt.want {
			t.Errorf("normBranches(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRelativeChains(t *testing.T) {
	in := []string{
		"    7 PERF_RECORD_MMAP2 7/7: [0x55000000(0x2000) @ 0x1000 fe:00 1 0]: r-xp /bin/a",
		"    7 PERF_RECORD_FORK(8:8):(7:7)",
		"    8 ",
		"\t        55000010",
		"\t        12345678",
		" 0x55000010/0x55000020/P/-/-/0 ",
	}
	got := relativeChains(t, in, true)
	if got[3] != "\t            1010" || got[4] != "\t        12345678" {
		t.Errorf("frames %q, %q; want the first relative to /bin/a, the second unchanged", got[3], got[4])
	}
}

func TestBranchFlags(t *testing.T) {
	tests := []struct {
		name string
		e    Entry
		lay  flagLayout
		want uint64
	}{
		{"plain", Entry{Cycles: 9, Kind: KindCond, Mispred: true}, layoutPlain, 2},
		{"typed predicted", Entry{Cycles: 12, Kind: KindCond}, layoutTyped, 2 | 12<<4 | 1<<20},
		{"typed mispredicted", Entry{Cycles: 1, Kind: KindRet, Mispred: true}, layoutTyped, 1 | 1<<4 | 6<<20},
		{"typed unknown", Entry{Cycles: 65535}, layoutTyped, 2 | 0xffff<<4},
		{"spec", Entry{Cycles: 3, Kind: KindCall}, layoutSpec, 2 | 2<<24},
	}
	for _, tt := range tests {
		if got := branchFlags(&tt.e, tt.lay); got != tt.want {
			t.Errorf("%s: branchFlags = %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

func TestProtFlags(t *testing.T) {
	tests := []struct {
		in          string
		prot, flags uint32
	}{
		{"r-xp", 5, 2},
		{"rw-p", 3, 2},
		{"r-xs", 5, 1},
		{"x", 0, 2},
	}
	for _, tt := range tests {
		if prot, flags := protFlags(tt.in); prot != tt.prot || flags != tt.flags {
			t.Errorf("protFlags(%q) = %d, %d; want %d, %d", tt.in, prot, flags, tt.prot, tt.flags)
		}
	}
}
