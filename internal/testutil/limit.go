package testutil

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

const childEnv = "PROFGEN_TESTUTIL_CHILD"

// Limited runs the calling test again in a child process whose address
// space is limited to asBytes (ulimit -v) and which must finish within
// timeout. It returns true in the child, where the test does its work, and
// false in the parent, which fails the test if the child failed, ran out
// of memory or time:
//
//	if !testutil.Limited(t, 2<<30, 20*time.Second) {
//		return
//	}
//	... the hostile input ...
func Limited(t *testing.T, asBytes int64, timeout time.Duration) bool {
	t.Helper()
	if os.Getenv(childEnv) == t.Name() {
		return true
	}
	if testing.Short() {
		t.Skip("child process under a memory limit: not in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	pattern := strings.Join(parts, "/")
	script := fmt.Sprintf("ulimit -v %d && exec \"$@\"", asBytes>>10)
	cmd := exec.CommandContext(ctx, "sh", "-c", script, "sh", os.Args[0], "-test.run="+pattern, "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"="+t.Name(), "GOMAXPROCS=2")
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("child ran longer than %v\n%s", timeout, tail(out))
	}
	if err != nil {
		t.Fatalf("child under a %d MiB address-space limit: %v\n%s", asBytes>>20, err, tail(out))
	}
	t.Logf("child under a %d MiB address-space limit passed in %v", asBytes>>20, took.Round(time.Millisecond))
	return false
}

// tail shortens a child's output to its start and end.
func tail(b []byte) string {
	const n = 3000
	if len(b) > 2*n {
		return string(b[:n]) + "\n[...]\n" + string(b[len(b)-n:])
	}
	return string(b)
}

// CPUTime is the user and system time the test process has used so far.
// Time limits in tests compare CPU time, which other work on a loaded
// machine does not stretch as it stretches wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
