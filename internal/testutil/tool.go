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
