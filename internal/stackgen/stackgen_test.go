package stackgen_test

import (
	"bytes"
	"debug/elf"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/profgen/profgen/internal/callstack"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/stackgen"
	"github.com/profgen/profgen/internal/testsym"
)

var update = flag.Bool("update", false, "rewrite golden files")

const dataDir = "../../testdata/callstack/"

func forkyCounts(t *testing.T) *callstack.Counts {
	f, err := elf.Open(dataDir + "forky")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a := callstack.NewAggregator([]callstack.Binary{callstack.NewELFBinary(dataDir+"forky", f)})
	in, err := os.Open(dataDir + "forky.pid-ip-sym-dso-tasks.script")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r := callstack.NewScriptReader(in, "forky script")
	for r.Next() {
		if err := a.Add(r.Record()); err != nil {
			t.Fatal(err)
		}
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return a.Counts()
}

// binaryAddrs lists the addresses of binary frames in counts.
func binaryAddrs(c *callstack.Counts) []uint64 {
	seen := map[uint64]bool{}
	var addrs []uint64
	for _, s := range c.Stacks {
		for _, l := range s.Locs {
			if c.Objects[l.Obj].Binary == 0 && !seen[l.Addr] {
				seen[l.Addr] = true
				addrs = append(addrs, l.Addr)
			}
		}
	}
	return addrs
}

func TestForkyTextGolden(t *testing.T) {
	c := forkyCounts(t)
	sym := testsym.New(t, dataDir+"forky", binaryAddrs(c))
	profs := stackgen.Generate(c, []stackgen.Symbolizer{sym})
	var buf bytes.Buffer
	if err := sampleprof.WriteText(&buf, profs[0]); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "forky.txt")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, buf.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("text profile differs from %s (rerun with -update):\n%s", golden, buf.String())
	}
}

// TestForkyProfileUsedByClang checks that llvm-profdata-19 reads the text
// profile and clang-19 compiles forky.c with it.
func TestForkyProfileUsedByClang(t *testing.T) {
	for _, tool := range []string{"llvm-profdata-19", "clang-19"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed")
		}
	}
	prof, err := filepath.Abs(filepath.Join("testdata", "forky.txt"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("llvm-profdata-19", "show", "--sample", "--all-functions", prof).CombinedOutput()
	if err != nil {
		t.Fatalf("llvm-profdata-19 show: %v\n%s", err, out)
	}
	if !bytes.Contains(out, []byte("Function: spin:")) {
		t.Errorf("llvm-profdata-19 show lacks spin:\n%s", out)
	}
	obj := filepath.Join(t.TempDir(), "forky.o")
	cmd := exec.Command("clang-19", "-O2", "-g", "-c", "-fprofile-sample-use="+prof,
		"-Werror=profile-instr-unprofiled", "-Rpass=sample-profile", "-o", obj, "../../testdata/programs/forky.c")
	out, err = cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("clang-19 -fprofile-sample-use: %v\n%s", err, out)
	}
	t.Logf("clang-19 remarks:\n%s", out)
}
