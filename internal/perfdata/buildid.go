package perfdata

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// BuildIDs returns the build ids perf recorded in a perf.data file, by DSO
// path (`perf buildid-list`).
func BuildIDs(ctx context.Context, path string, opts Options) (map[string]string, error) {
	perf, err := findPerf(opts.Perf)
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, perf, "buildid-list", "-i", path)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("perf buildid-list failed (%v): %s", exitStatus(err), lastLine(stderr.String()))
	}
	return parseBuildIDList(out), nil
}

// parseBuildIDList reads "<hex id> <path>" lines.
func parseBuildIDList(out []byte) map[string]string {
	ids := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		id, path, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if ok && isHex(id) {
			ids[strings.TrimSpace(path)] = id
		}
	}
	return ids
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return s != ""
}
