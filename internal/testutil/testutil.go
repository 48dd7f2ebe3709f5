// Package testutil holds what tests of every package share: where the
// large test data built by `make testdata` lives, golden files rewritten
// with -update, and running a test's body in a child process under a
// memory (address-space) limit. Only tests import it.
package testutil

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// Update reports whether the tests run with -update.
func Update() bool { return *update }

// DataDir returns the directory of the large test data (`make testdata`):
// $PROFGEN_TESTDATA when set, else build/testdata at the module root. The
// test is skipped when the directory, or parts below it, is missing.
func DataDir(t testing.TB, parts ...string) string {
	t.Helper()
	dir, err := dataDir(parts...)
	if err != nil {
		t.Skipf("no test data: %v (run make testdata)", err)
	}
	return dir
}

// OptionalDataDir is DataDir for tests that only add the large test data
// to what they check: ok is false, and no test skipped, when it is missing.
func OptionalDataDir(parts ...string) (dir string, ok bool) {
	dir, err := dataDir(parts...)
	return dir, err == nil
}

func dataDir(parts ...string) (string, error) {
	dir := os.Getenv("PROFGEN_TESTDATA")
	if dir == "" {
		root, err := ModuleRoot()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(root, "build", "testdata")
	}
	dir = filepath.Join(append([]string{dir}, parts...)...)
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("nothing at %s", dir)
	}
	return dir, nil
}

// ModuleRoot is the nearest directory above the working directory that
// holds go.mod.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}

// Golden compares got with the golden file path, or rewrites the file
// with -update.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (%d bytes, want %d); rerun with -update if the change is intended\n%s",
			path, len(got), len(want), firstDiff(got, want))
	}
}

// firstDiff describes where a and b first differ.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return fmt.Sprintf("first difference at byte %d (line %d)", i, bytes.Count(a[:i], []byte("\n"))+1)
}
