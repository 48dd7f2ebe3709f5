// Package profwrite is test-only: it writes the profiles continuous
// profilers write, from a perf recording, so that tests of both modules
// (profgen's driver, profgen-fleet) can check those inputs against the
// recording itself. It shares no address code with package contprof:
// it parses perf script's text itself (processes' mappings from the mmap,
// fork and exec events; samples' call chains as file offsets in their
// DSOs).
//
// In: a perf.data recorded with -g (ReadScript runs perf script on it,
// BuildIDs perf buildid-list). Out: files of
//
//   - pprof as perf_to_profile writes it (WritePprof): runtime addresses,
//     perf's mmap start, limit and offset, build ids, every frame but the
//     leaf at its return address − 1;
//   - OTLP as the OpenTelemetry eBPF profiler writes it (WriteOTLP,
//     WriteOTLPFiles): ELF virtual addresses (by the file's program
//     headers), callers − 1, mappings' ranges in the same space, GNU build
//     id attributes, kernel frames of frame type kernel in no mapping, a
//     stack table, and each sample as timestamps.
//
// Its functions take a testing.TB and fail the test on error.
package profwrite

import (
	"bufio"
	"bytes"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// scriptMap is one executable mapping of a process, as perf recorded it.
type scriptMap struct {
	start, size, pgoff uint64
	path               string
}

// scriptFrame is a call-chain frame as perf script prints it: a file
// offset in dso, or a kernel or unknown address.
type scriptFrame struct {
	addr uint64
	dso  string
}

// Sample is a sample of the recording: its process's mappings then, its
// time, its period and its call chain, leaf first.
type Sample struct {
	maps   []scriptMap
	timeNS uint64
	period uint64
	frames []scriptFrame
}

var (
	mmapLine   = regexp.MustCompile(`PERF_RECORD_MMAP2? (-?\d+)/\d+: \[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ (0x[0-9a-f]+|\d+)[^\]]*\]: \S+ (.+)$`)
	forkLine   = regexp.MustCompile(`PERF_RECORD_FORK\((\d+):\d+\):\((\d+):\d+\)`)
	execLine   = regexp.MustCompile(`^\s*(\d+)\s+[\d.]+:\s+PERF_RECORD_COMM exec:`)
	headerLine = regexp.MustCompile(`^\s*(\d+)\s+(\d+)\.(\d{9}):\s+(\d+)\s*$`)
	frameLine  = regexp.MustCompile(`^\s+([0-9a-f]+) .* \((.*)\)$`)
)

// ReadScript runs perf script on the recording data and reads its
// samples, in the recording's order.
func ReadScript(t testing.TB, data string) []Sample {
	t.Helper()
	out, err := exec.Command("perf", "script", "-i", data, "-F", "pid,time,period,ip,sym,dso", "--ns",
		"--show-mmap-events", "--show-task-events").Output()
	if err != nil {
		t.Fatalf("perf script -i %s: %v", data, err)
	}
	maps := map[int][]scriptMap{}
	var samples []Sample
	var cur *Sample
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := frameLine.FindStringSubmatch(line); m != nil && cur != nil {
			cur.frames = append(cur.frames, scriptFrame{hexU(t, m[1]), m[2]})
			continue
		}
		cur = nil
		if m := headerLine.FindStringSubmatch(line); m != nil {
			samples = append(samples, newSample(t, m, maps))
			cur = &samples[len(samples)-1]
		} else {
			scriptEvent(t, line, maps)
		}
	}
	return samples
}

// newSample is the sample of a header line's match m, with the kernel's
// and its process's mappings.
func newSample(t testing.TB, m []string, maps map[int][]scriptMap) Sample {
	pid := atoi(t, m[1])
	ns := uint64(atoi(t, m[2]))*1e9 + uint64(atoi(t, m[3]))
	return Sample{maps: append(append([]scriptMap(nil), maps[-1]...), maps[pid]...),
		timeNS: ns, period: uint64(atoi(t, m[4]))}
}

// scriptEvent updates the processes' mappings by an event line.
func scriptEvent(t testing.TB, line string, maps map[int][]scriptMap) {
	if m := mmapLine.FindStringSubmatch(line); m != nil {
		pid := atoi(t, m[1])
		pgoff, _ := strconv.ParseUint(m[4], 0, 64)
		maps[pid] = append(maps[pid], scriptMap{hexU(t, m[2]), hexU(t, m[3]), pgoff, m[5]})
	} else if m := forkLine.FindStringSubmatch(line); m != nil {
		maps[atoi(t, m[1])] = append([]scriptMap(nil), maps[atoi(t, m[2])]...)
	} else if m := execLine.FindStringSubmatch(line); m != nil {
		delete(maps, atoi(t, m[1]))
	}
}

func hexU(t testing.TB, s string) uint64 {
	v, err := strconv.ParseUint(s, 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func atoi(t testing.TB, s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// isKernelDSO reports whether perf names the kernel.
func isKernelDSO(dso string) bool { return strings.HasPrefix(dso, "[kernel") }

// mapOf is the mapping of a frame: the kernel's, or the last of the
// process's of dso that holds its file offset; nil for none.
func (s *Sample) mapOf(f scriptFrame) *scriptMap {
	for i := len(s.maps) - 1; i >= 0; i-- {
		m := &s.maps[i]
		if isKernelDSO(f.dso) && isKernelDSO(m.path) {
			return m
		}
		if m.path == f.dso && f.addr >= m.pgoff && f.addr < m.pgoff+m.size {
			return m
		}
	}
	return nil
}

// BuildIDs are perf's build ids of the recording's DSOs, by path.
func BuildIDs(t testing.TB, data string) map[string]string {
	t.Helper()
	out, err := exec.Command("perf", "buildid-list", "-i", data).Output()
	if err != nil {
		t.Fatalf("perf buildid-list -i %s: %v", data, err)
	}
	ids := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		if id, path, ok := strings.Cut(l, " "); ok {
			ids[path] = id
		}
	}
	return ids
}
