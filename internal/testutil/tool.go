package testutil

import (
	"os/exec"
	"testing"
)

// Tool returns the path of the named command, skipping the test when the
// machine does not have it (.ci/run installs every tool the tests use).
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not installed", name)
	}
	return p
}

// Tools skips the test unless every named command is installed.
func Tools(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		Tool(t, n)
	}
}

// HasTool reports whether the named command is installed, for tests that
// check more with it but do not need it.
func HasTool(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}
