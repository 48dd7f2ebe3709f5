package generate

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// TestTracesMatchLLVMProfgen runs llvm-profgen-19 on the committed LBR traces
// twice: once to aggregate them (--skip-symbolization) and once for its text
// profile. Generating from the aggregated counters must give the same text.
func TestTracesMatchLLVMProfgen(t *testing.T) {
	ref := testutil.Tool(t, "llvm-profgen-19")
	for _, name := range testBinaries {
		bin := strings.TrimSuffix(name, ".bin")
		script := filepath.Join("testdata", "lbr", bin+".script")
		t.Run(bin, func(t *testing.T) {
			got, want := generateBoth(t, ref, filepath.Join("testdata", name), script)
			if !bytes.Equal(got, want) {
				p := filepath.Join(os.TempDir(), "profgen-trace-"+bin+".txt")
				os.WriteFile(p, got, 0o644)
				os.WriteFile(p+".ref", want, 0o644)
				t.Errorf("profile differs from llvm-profgen-19: diff %s %s.ref", p, p)
			}
		})
	}
}

// generateBoth returns profgen's and llvm-profgen's text profiles of script.
func generateBoth(t *testing.T, ref, bin, script string) (got, want []byte) {
	t.Helper()
	dir := t.TempDir()
	raw, text := filepath.Join(dir, "raw.txt"), filepath.Join(dir, "ref.txt")
	runTool(t, ref, "--binary="+bin, "--perfscript="+script, "--skip-symbolization", "--output="+raw)
	runTool(t, ref, "--binary="+bin, "--perfscript="+script, "--format=text", "--output="+text)
	in := openTestInput(t, bin)
	f, err := os.Open(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := readUnsymbolized(f, in.base)
	if err != nil {
		t.Fatal(err)
	}
	want, err = os.ReadFile(text)
	if err != nil {
		t.Fatal(err)
	}
	return profileText(t, Profile(c, in.code, in.sym, in.opts)), want
}

func runTool(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// TestClangReadsProfile compiles the test program with profgen's profile
// of it: clang-19 must read the profile without complaint.
func TestClangReadsProfile(t *testing.T) {
	ref := testutil.Tool(t, "llvm-profgen-19")
	clang := testutil.Tool(t, "clang++-19")
	got, _ := generateBoth(t, ref, "testdata/cxx-pie.bin", "testdata/lbr/cxx-pie.script")
	prof := filepath.Join(t.TempDir(), "cxx.prof")
	if err := os.WriteFile(prof, got, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(clang, "-O2", "-g", "-fdebug-info-for-profiling", "-fprofile-sample-use="+prof,
		"-Werror=profile-instr-out-of-date", "-o", filepath.Join(t.TempDir(), "a.out"),
		"testdata/src/main.cc", "testdata/src/work.cc").CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Fatalf("clang with profgen's profile: %v\n%s", err, out)
	}
}
