package pipeline

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/testutil"
)

// The acceptance tests' inputs, made once per test binary in scratch
// (removed at the end) from what make testdata built:
//
//   - 2,000 perf.data parts of the sqlite LBR recordings multi and reuse
//     (4 processes at 4 ASLR bases; a process coming back at new bases),
//     cut by tools/perfsplit, 1,000 from each;
//   - 500 parts of nonpie/nonpiego.perf.data (a Go program's call stacks,
//     perf record -g, 38,000 samples; scripts/testdata.d/70-nonpie.sh);
//   - 2,000 sqlite .profraw of two builds: instr/sqlite's 1,000 raws
//     (build A), and the same raws with their binary id patched to B's, B
//     being the sqlite binary with its build-id note patched. B is a second
//     build as far as binary ids go: same functions, same counts.

var scratch string

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init()
	dir, err := os.MkdirTemp("", "profgen-fleet-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	scratch = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// inputs are the acceptance tests' inputs and the binaries they need.
type inputs struct {
	lbrParts, goParts, raws string // globs
	lbrBinary, goBinary     string
	lbrRecordings           []string // the recordings the LBR parts were cut from
	goRecording             string
	rawBinaries             [2]string // builds A and B
	rawDir                  string
}

var (
	inputsOnce sync.Once
	theInputs  *inputs
	inputsErr  error
)

// testInputs makes the inputs once, or skips the test without test data.
func testInputs(t *testing.T) *inputs {
	t.Helper()
	lbr := testutil.DataDir(t, "lbr", "sqlite", "reuse.perf.data")
	goRec := testutil.DataDir(t, "nonpie", "nonpiego.perf.data")
	raws := testutil.DataDir(t, "instr", "sqlite", "raw")
	inputsOnce.Do(func() {
		in := &inputs{lbrBinary: filepath.Join(filepath.Dir(lbr), "binary"), goBinary: filepath.Join(filepath.Dir(goRec), "nonpiego"),
			lbrRecordings: []string{filepath.Join(filepath.Dir(lbr), "multi.perf.data"), lbr}, goRecording: goRec}
		inputsErr = in.make(raws)
		theInputs = in
	})
	if inputsErr != nil {
		t.Fatal(inputsErr)
	}
	return theInputs
}

func (in *inputs) make(raws string) error {
	split, err := buildPerfsplit()
	if err != nil {
		return err
	}
	parts := filepath.Join(scratch, "parts")
	args := append([]string{"-parts", "2000", "-o", parts, "-name", "lbr"}, in.lbrRecordings...)
	if out, err := exec.Command(split, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("perfsplit: %v: %s", err, out)
	}
	if out, err := exec.Command(split, "-parts", "500", "-o", parts, "-name", "go", in.goRecording).CombinedOutput(); err != nil {
		return fmt.Errorf("perfsplit: %v: %s", err, out)
	}
	in.lbrParts, in.goParts = filepath.Join(parts, "lbr-*.perf.data"), filepath.Join(parts, "go-*.perf.data")
	return in.makeRaws(raws)
}

// buildPerfsplit builds tools/perfsplit of the main module.
func buildPerfsplit() (string, error) {
	bin := filepath.Join(scratch, "perfsplit")
	cmd := exec.Command("go", "build", "-o", bin, "./tools/perfsplit")
	cmd.Dir = ".." + string(filepath.Separator) + ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./tools/perfsplit: %v: %s", err, out)
	}
	return bin, nil
}

// makeRaws links build A's raws and writes build B's.
func (in *inputs) makeRaws(raws string) error {
	in.rawDir = filepath.Join(scratch, "raws")
	if err := os.MkdirAll(in.rawDir, 0o755); err != nil {
		return err
	}
	binA := filepath.Join(filepath.Dir(raws), "binary")
	elf, err := os.ReadFile(binA)
	if err != nil {
		return err
	}
	idA, idB, err := buildIDs(binA)
	if err != nil {
		return err
	}
	in.rawBinaries = [2]string{binA, filepath.Join(scratch, "binary-b")}
	if err := os.WriteFile(in.rawBinaries[1], patchOnce(elf, idA, idB), 0o755); err != nil {
		return err
	}
	names, err := filepath.Glob(filepath.Join(raws, "*.profraw"))
	if err != nil || len(names) < 1000 {
		return fmt.Errorf("%s: %d raws, want 1000 (%v)", raws, len(names), err)
	}
	for _, n := range names[:1000] {
		if err := in.addRawPair(n, idA, idB); err != nil {
			return err
		}
	}
	in.raws = filepath.Join(in.rawDir, "*.profraw")
	return nil
}

// addRawPair links (or copies) the raw at name as build A's and writes its
// copy of build B.
func (in *inputs) addRawPair(name string, idA, idB []byte) error {
	base := filepath.Base(name)
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	a := filepath.Join(in.rawDir, "a-"+base)
	if err := os.Link(name, a); err != nil { // profgen merge reads regular files of a directory, not links
		if err := os.WriteFile(a, data, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(in.rawDir, "b-"+base), patchOnce(data, idA, idB), 0o644)
}

// buildIDs are the build id of the binary at path and the one its copy of
// build B gets (each byte inverted).
func buildIDs(path string) (a, b []byte, err error) {
	a, err = binary.ReadBuildID(path)
	if err == nil && len(a) == 0 {
		err = fmt.Errorf("%s has no build id", path)
	}
	b = make([]byte, len(a))
	for i, c := range a {
		b[i] = ^c
	}
	return a, b, err
}

// patchOnce replaces the first old in data by new (of the same length).
func patchOnce(data, old, new []byte) []byte {
	return bytes.Replace(data, old, new, 1)
}

// runFleet runs the pipeline on its own output directory and returns it.
func runFleet(t *testing.T, name string, opts Options) (string, *Summary) {
	t.Helper()
	opts.OutDir = filepath.Join(scratch, name)
	if err := os.MkdirAll(opts.OutDir, 0o755); err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("profgen-fleet: %v", err)
	}
	return opts.OutDir, sum
}

// sameFile fails unless the files at got and want hold the same bytes.
func sameFile(t *testing.T, got, want string) {
	t.Helper()
	g, err := os.ReadFile(got)
	if err != nil {
		t.Error(err)
		return
	}
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g, w) {
		t.Errorf("%s (%d bytes) differs from %s (%d bytes)", got, len(g), want, len(w))
	}
}
