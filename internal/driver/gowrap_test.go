package driver

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestGoWrapperFolded: a Go program calling a method through a method
// value, recorded with perf record -g. Go's compiler makes the wrapper
// main.(*encoder).encode-fm; in the pprof it does not appear as a caller,
// as in Go's own profiles: the method's caller is the function that made
// the call.
func TestGoWrapperFolded(t *testing.T) {
	goTool, perf := testutil.Tool(t, "go"), testutil.Tool(t, "perf")
	dir := t.TempDir()
	bin, data := filepath.Join(dir, "gowrap"), filepath.Join(dir, "perf.data")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	build.Dir = "testdata/gowrap"
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", build, err, out)
	}
	rec := exec.Command(perf, "record", "-q", "-e", "cpu-clock", "-F", "4999", "-g", "-o", data, "--", bin, "3000000")
	if out, err := rec.CombinedOutput(); err != nil {
		t.Skipf("perf record failed (perf_event_paranoid?): %v\n%s", err, out)
	}
	const wrapper, method = "main.(*encoder).encode-fm", "main.(*encoder).encode"
	kept := leafEdges(t, convert(t, Options{PerfData: data, Binaries: []string{bin}, Format: "pprof", NoFoldWrappers: true}))
	if kept[wrapper+" -> "+method] == 0 {
		t.Errorf("with --no-fold-wrappers: no %s -> %s (%v); the test program no longer makes a wrapper", wrapper, method, kept)
	}
	folded := leafEdges(t, convert(t, Options{PerfData: data, Binaries: []string{bin}, Format: "pprof"}))
	for e, n := range folded {
		if strings.Contains(e, "-fm") {
			t.Errorf("folded: %d samples on %q", n, e)
		}
	}
	if folded["main.apply -> "+method] == 0 {
		t.Errorf("folded: no main.apply -> %s (%v)", method, folded)
	}
}
