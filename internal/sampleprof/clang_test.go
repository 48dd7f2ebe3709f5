package sampleprof

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestClangUsesProfile compiles testdata/loop.c with clang-19
// -fprofile-sample-use= each encoding profgen writes, and checks that the
// profile reached the IR (a sample profile summary and entry counts).
func TestClangUsesProfile(t *testing.T) {
	clang := testutil.Tool(t, "clang-19")
	p := readTestFile(t, "testdata/loop.prof.txt")
	for _, out := range outputs {
		t.Run(out.suffix[1:], func(t *testing.T) {
			prof := filepath.Join(t.TempDir(), "loop.prof")
			if err := os.WriteFile(prof, encode(t, p, out.format, out.opts), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(clang, "-O2", "-g", "-fdebug-info-for-profiling",
				"-fprofile-sample-use="+prof, "-S", "-emit-llvm", "-o", "-", "testdata/loop.c")
			ir, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %v", cmd.Args, err)
			}
			for _, want := range []string{`!"ProfileFormat", !"SampleProfile"`, `!"function_entry_count", i64 10001`} {
				if !strings.Contains(string(ir), want) {
					t.Errorf("IR lacks %s", want)
				}
			}
		})
	}
}
