package driver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/testutil"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/rawprof"
)

// llvmProfgen runs llvm-profgen-19 --skip-symbolization, skipping the test
// when it is not installed.
func llvmProfgen(t testing.TB, bin, script string) []byte {
	t.Helper()
	tool := testutil.Tool(t, "llvm-profgen-19")
	out := filepath.Join(t.TempDir(), "llvm.raw")
	cmd := exec.Command(tool, "--perfscript", script, "--binary", bin, "--skip-symbolization", "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("llvm-profgen-19: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// profgen runs the pipeline on a script file and returns the output.
func profgen(t testing.TB, bin string, script string, pids []int32) ([]byte, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "profgen.raw")
	var stderr bytes.Buffer
	err := Run(context.Background(), Options{PerfScript: script, Binaries: []string{bin}, Output: out, SkipSymbolization: true, PIDs: pids, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data, stderr.String()
}

func TestSingleProcessMatchesLLVM(t *testing.T) {
	bin := "testdata/t.bin"
	got, summary := profgen(t, bin, "testdata/t.script", nil)
	want := llvmProfgen(t, "testdata/t.bin", "testdata/t.script")
	if !bytes.Equal(got, want) {
		t.Errorf("profgen differs from llvm-profgen-19:\n--- profgen\n%s--- llvm-profgen-19\n%s", got, want)
	}
	if !strings.Contains(summary, "7 samples with branch stacks, 7 used") {
		t.Errorf("summary: %s", summary)
	}
}

// sumLLVM runs llvm-profgen-19 on each script and sums the counters.
func sumLLVM(t *testing.T, bin string, scripts []string) []byte {
	f, err := binary.Open(bin, binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	total := aggregate.NewCounters()
	for _, s := range scripts {
		raw := llvmProfgen(t, bin, s)
		c, err := rawprof.Read(bytes.NewReader(raw), s, f.PreferredBase())
		if err != nil {
			t.Fatal(err)
		}
		total.Add(c)
	}
	var out bytes.Buffer
	if err := rawprof.Write(&out, total, f.PreferredBase()); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestMultiProcessEqualsSumOfProcesses(t *testing.T) {
	bin := "testdata/t-pie.bin"
	dir := t.TempDir()
	sc := multiProcessScenario()
	combined := filepath.Join(dir, "combined.script")
	if err := os.WriteFile(combined, []byte(sc.combined()), 0o644); err != nil {
		t.Fatal(err)
	}
	var each []string
	for i, text := range sc.perProcess() {
		name := filepath.Join(dir, fmt.Sprintf("proc%d.script", i))
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		each = append(each, name)
	}
	got, summary := profgen(t, bin, combined, nil)
	want := sumLLVM(t, bin, each)
	if !bytes.Equal(got, want) {
		t.Errorf("profgen differs from the sum of llvm-profgen-19 per process:\n--- profgen\n%s--- llvm-profgen-19 sum\n%s\n%s", got, want, summary)
	}
	if !strings.Contains(summary, "1 from processes with no mapping") {
		t.Errorf("the sample of the unmapped process is not reported: %s", summary)
	}
}

func TestPIDFilter(t *testing.T) {
	bin := "testdata/t-pie.bin"
	dir := t.TempDir()
	sc := multiProcessScenario()
	combined := filepath.Join(dir, "combined.script")
	os.WriteFile(combined, []byte(sc.combined()), 0o644)
	texts := sc.perProcess()
	var each []string
	for i, p := range sc.procs {
		if p.pid != 300 { // keep only the forked child
			continue
		}
		name := filepath.Join(dir, fmt.Sprintf("proc%d.script", i))
		os.WriteFile(name, []byte(texts[i]), 0o644)
		each = append(each, name)
	}
	got, summary := profgen(t, bin, combined, []int32{300})
	if want := sumLLVM(t, bin, each); !bytes.Equal(got, want) {
		t.Errorf("--pid 300 differs:\n%s---\n%s", got, want)
	}
	if !strings.Contains(summary, "from processes not selected by --pid") {
		t.Errorf("summary: %s", summary)
	}
}

// TestUnsymbolizedInput reads llvm-profgen-19's own unsymbolized profile of
// t.script and writes it back unchanged.
func TestUnsymbolizedInput(t *testing.T) {
	bin := "testdata/t.bin"
	out := filepath.Join(t.TempDir(), "out.raw")
	err := Run(context.Background(), Options{UnsymbolizedProfile: "testdata/t.llvm19.raw", Binaries: []string{bin}, Output: out, SkipSymbolization: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	want, _ := os.ReadFile("testdata/t.llvm19.raw")
	if !bytes.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestStdinStdout: "-" reads standard input and writes standard output.
func TestStdin(t *testing.T) {
	bin := "testdata/t.bin"
	in, err := os.Open("testdata/t.script")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out := filepath.Join(t.TempDir(), "out.raw")
	if err := Run(context.Background(), Options{PerfScript: "-", Stdin: in, Binaries: []string{bin}, Output: out, SkipSymbolization: true}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	want, _ := os.ReadFile("testdata/t.llvm19.raw")
	if !bytes.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestParseErrorNamesLine(t *testing.T) {
	bin := "testdata/t.bin"
	script := filepath.Join(t.TempDir(), "bad.script")
	os.WriteFile(script, []byte(" 0x401145/0x401130\nPERF_RECORD_MMAP2 1/1: [0x401000(0x1000) @ \n"), 0o644)
	err := Run(context.Background(), Options{PerfScript: script, Binaries: []string{bin}, Output: filepath.Join(t.TempDir(), "o"), SkipSymbolization: true})
	if err == nil || !strings.Contains(err.Error(), "bad.script:2:") {
		t.Fatalf("err = %v, want one naming bad.script:2", err)
	}
}
