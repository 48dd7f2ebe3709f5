package driver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// runLLVMProfgen runs llvm-profgen-19 with args plus -o and returns the
// output.
func runLLVMProfgen(t *testing.T, args ...string) []byte {
	t.Helper()
	tool := testutil.Tool(t, "llvm-profgen-19")
	out := filepath.Join(t.TempDir(), "llvm.prof")
	if msg, err := exec.Command(tool, append(args, "-o", out)...).CombinedOutput(); err != nil {
		t.Fatalf("llvm-profgen-19: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// profgenProfile runs the whole pipeline on a script into a sample profile.
func profgenProfile(t *testing.T, bin string, script, format string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "profgen.prof")
	var stderr bytes.Buffer
	if err := Run(context.Background(), Options{PerfScript: script, Binaries: []string{bin}, Output: out, Format: format, Stderr: &stderr}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestLBRProfileMatchesLLVM: the sample profile of one process, in text and
// in the default extbinary, byte-identical to llvm-profgen-19's. The test
// programs cover PIE, non-PIE, -fcf-protection, gcc-12 and sqlite.
func TestLBRProfileMatchesLLVM(t *testing.T) {
	for _, dir := range lbrPrograms(t) {
		for _, format := range []string{"text", "extbinary"} {
			t.Run(filepath.Base(dir)+"/"+format, func(t *testing.T) {
				binPath := filepath.Join(dir, "binary")
				script := filepath.Join(dir, "single.script")
				got := profgenProfile(t, binPath, script, format)
				want := runLLVMProfgen(t, "--perfscript", script, "--binary", binPath, "--format="+format)
				if !bytes.Equal(got, want) {
					t.Errorf("differs from llvm-profgen-19 --format=%s (%d vs %d bytes)", format, len(got), len(want))
				}
			})
		}
	}
}

// TestLBRProcessesProfileEqualsSum: the text profile of several processes
// (concurrent, forked, a recycled PID) equals llvm-profgen-19's profile of
// the sum of its per-process counters.
func TestLBRProcessesProfileEqualsSum(t *testing.T) {
	for _, dir := range lbrPrograms(t) {
		for _, kind := range []string{"multi", "fork", "reuse"} {
			combined := filepath.Join(dir, kind+".script")
			each, _ := filepath.Glob(filepath.Join(dir, kind+".*.script"))
			if _, err := os.Stat(combined); err != nil || len(each) == 0 {
				continue
			}
			t.Run(filepath.Base(dir)+"/"+kind, func(t *testing.T) {
				binPath := filepath.Join(dir, "binary")
				bin := binPath
				sum := filepath.Join(t.TempDir(), "sum.raw")
				if err := os.WriteFile(sum, sumLLVM(t, bin, each), 0o644); err != nil {
					t.Fatal(err)
				}
				got := profgenProfile(t, bin, combined, "text")
				want := runLLVMProfgen(t, "--unsymbolized-profile", sum, "--binary", binPath, "--format=text")
				if !bytes.Equal(got, want) {
					t.Errorf("differs from llvm-profgen-19 on the per-process sum (%d vs %d bytes)", len(got), len(want))
				}
			})
		}
	}
}
