package callstack

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var (
	mmapRE = regexp.MustCompile(`PERF_RECORD_MMAP2? (-?[0-9]+)/-?[0-9]+: \[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0)[^\]]*\]: ([-a-z]+) (.*)$`)
	forkRE = regexp.MustCompile(`PERF_RECORD_FORK\((-?[0-9]+):(-?[0-9]+)\):\((-?[0-9]+):(-?[0-9]+)\)`)
	exitRE = regexp.MustCompile(`PERF_RECORD_EXIT\((-?[0-9]+):(-?[0-9]+)\)`)
	execRE = regexp.MustCompile(`PERF_RECORD_COMM exec: .*:(-?[0-9]+)/(-?[0-9]+)$`)
)

// parseEvent parses the PERF_RECORD_* lines profgen needs; others (COMM
// without exec, LOST, ...) are skipped.
func parseEvent(line string) (any, error) {
	switch {
	case strings.Contains(line, "PERF_RECORD_MMAP"):
		return parseMmap(line)
	case strings.Contains(line, "PERF_RECORD_FORK"):
		m := forkRE.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("malformed PERF_RECORD_FORK line")
		}
		return &Fork{PID: atoi(m[1]), TID: atoi(m[2]), ParentPID: atoi(m[3])}, nil
	case strings.Contains(line, "PERF_RECORD_EXIT"):
		m := exitRE.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("malformed PERF_RECORD_EXIT line")
		}
		return &Exit{PID: atoi(m[1]), TID: atoi(m[2])}, nil
	case strings.Contains(line, "PERF_RECORD_COMM exec:"):
		if m := execRE.FindStringSubmatch(line); m != nil && m[1] == m[2] {
			return &Exec{PID: atoi(m[1])}, nil
		}
	}
	return nil, nil
}

func parseMmap(line string) (any, error) {
	m := mmapRE.FindStringSubmatch(line)
	if m == nil {
		return nil, fmt.Errorf("malformed PERF_RECORD_MMAP line")
	}
	start, _ := strconv.ParseUint(m[2], 0, 64)
	size, _ := strconv.ParseUint(m[3], 0, 64)
	pgoff, _ := strconv.ParseUint(m[4], 0, 64)
	return &Mmap{
		PID: atoi(m[1]), Start: start, Len: size, PgOff: pgoff,
		Path: m[6], Executable: strings.Contains(m[5], "x"),
	}, nil
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
