package pipeline

import (
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/addrprof"
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/driver"
	"github.com/profgen/profgen/internal/profmerge"
)

// Issue 29's acceptance: the fleet's output over 2,000 LBR parts, 500 Go
// call-stack parts and 2,000 raws of two builds is byte for byte what
// profgen writes on one machine over the same inputs, on the embedded
// prism runner and on a separately started prism job service.

var formats = []string{"text", "extbinary", "pprof"}

// fleetOptions are the options of the acceptance run.
func fleetOptions(in *inputs) Options {
	return Options{Inputs: []string{in.lbrParts, in.goParts, in.raws}, Formats: formats,
		BinaryDirs: []string{filepath.Dir(in.lbrBinary), filepath.Dir(in.goBinary)}}
}

var (
	embeddedOnce sync.Once
	embeddedDir  string
	embeddedSum  *Summary
)

// embeddedRun runs the acceptance run once on the embedded prism runner.
func embeddedRun(t *testing.T, in *inputs) (string, *Summary) {
	t.Helper()
	embeddedOnce.Do(func() {
		start := time.Now()
		embeddedDir, embeddedSum = runFleet(t, "embedded", fleetOptions(in))
		t.Logf("embedded prism: %d inputs in %v", embeddedSum.Inputs, time.Since(start).Round(time.Second))
	})
	if embeddedSum == nil {
		t.Fatal("the embedded run failed")
	}
	return embeddedDir, embeddedSum
}

func TestFleetMatchesProfgen(t *testing.T) {
	in := testInputs(t)
	got, sum := embeddedRun(t, in)
	if sum.Inputs != 4500 || len(sum.Bad) > 0 {
		t.Errorf("read %d inputs, %d bad; want 4500, 0", sum.Inputs, len(sum.Bad))
	}
	// One conversion per key of address profiles (LBR, Go), all formats at
	// once; pprof of LBR refused and counted, the job going on.
	if sum.Symbolized != 2 {
		t.Errorf("%d conversions of merged address profiles, want 2 (one per key)", sum.Symbolized)
	}
	if len(sum.Refused) != 1 || !strings.HasPrefix(sum.Refused[0], kindLBR+"/") || !strings.Contains(sum.Refused[0], "pprof") {
		t.Errorf("refused %q, want pprof of the LBR key", sum.Refused)
	}
	t.Logf("%d binary opens for %d inputs", sum.Opens, sum.Inputs)
	want := filepath.Join(scratch, "profgen")
	if err := os.MkdirAll(want, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("lbr", func(t *testing.T) {
		id := buildIDHex(t, in.lbrBinary)
		for _, f := range formats[:2] {
			sameFile(t, filepath.Join(got, kindLBR, id+"."+extension(t, f)), lbrReference(t, in, want, f))
		}
	})
	t.Run("go", func(t *testing.T) {
		id := buildIDHex(t, in.goBinary)
		for _, f := range formats {
			sameFile(t, filepath.Join(got, kindStacks, id+"."+extension(t, f)), onePass(t, in.goRecording, in.goBinary, want, f))
		}
	})
	t.Run("raws", func(t *testing.T) {
		for _, bin := range in.rawBinaries {
			id := buildIDHex(t, bin)
			sameFile(t, filepath.Join(got, kindInstr, id+".profdata"), rawReference(t, in.rawDir, bin, filepath.Join(want, id+".profdata")))
		}
	})
	if t.Failed() {
		sum.Print(os.Stderr)
	}
}

func buildIDHex(t *testing.T, path string) string {
	id, err := binary.ReadBuildID(path)
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(id)
}

// lbrReference is profgen's LBR profile of the recordings the parts were
// cut from: each converted whole to its address profile, merged, and
// symbolized (profgen --skip-symbolization, profgen merge, profgen
// --unsymbolized-profile).
func lbrReference(t *testing.T, in *inputs, dir, format string) string {
	var addrs []string
	for i, rec := range in.lbrRecordings {
		out := filepath.Join(dir, fmt.Sprintf("lbr%d.addr", i))
		profgen(t, driver.Options{PerfData: rec, Binaries: []string{in.lbrBinary}, SkipSymbolization: true, Output: out})
		addrs = append(addrs, out)
	}
	merged := filepath.Join(dir, "lbr.addr")
	f, err := os.Create(merged)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := addrprof.MergeFiles(f, addrs); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "lbr."+format)
	profgen(t, driver.Options{UnsymbolizedProfile: merged, Binaries: []string{in.lbrBinary}, Format: format, Output: out})
	return out
}

// onePass is profgen's conversion of the whole recording in one pass.
func onePass(t *testing.T, recording, bin, dir, format string) string {
	out := filepath.Join(dir, "go."+format)
	profgen(t, driver.Options{PerfData: recording, Binaries: []string{bin}, Format: format, Output: out})
	return out
}

func profgen(t *testing.T, opts driver.Options) {
	t.Helper()
	opts.Quiet = true
	if err := driver.Run(context.Background(), opts); err != nil {
		t.Fatalf("profgen: %v", err)
	}
}

// rawReference is profgen merge --match-binary-id --binary-file=bin over
// every raw of dir: those of bin's build.
func rawReference(t *testing.T, dir, bin, out string) string {
	opts := &profmerge.Options{Inputs: profmerge.Inputs{Args: []string{dir}}, Output: out, BinaryFile: bin, MatchBinaryID: true}
	if err := profmerge.Run(io.Discard, opts); err != nil {
		t.Fatalf("profgen merge: %v", err)
	}
	return out
}

func TestStandalonePrismGivesTheSameBytes(t *testing.T) {
	in := testInputs(t)
	want, _ := embeddedRun(t, in)
	endpoint := startPrism(t)
	setFlags(t, map[string]string{"runner": "universal", "endpoint": endpoint, "environment_type": "LOOPBACK"})
	start := time.Now()
	got, sum := runFleet(t, "standalone", fleetOptions(in))
	t.Logf("prism job service: %d inputs in %v", sum.Inputs, time.Since(start).Round(time.Second))
	names := outputNames(t, want)
	if gotNames := outputNames(t, got); !slices.Equal(gotNames, names) {
		t.Fatalf("wrote %v, want %v", gotNames, names)
	}
	for _, n := range names {
		sameFile(t, filepath.Join(got, n), filepath.Join(want, n))
	}
}

// outputNames are the paths of the files under dir, relative to it.
func outputNames(t *testing.T, dir string) []string {
	var names []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			names = append(names, strings.TrimPrefix(path, dir+"/"))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// startPrism builds Beam's standalone prism job service, starts it on a
// free port of 127.0.0.1 and stops it when the test ends.
func startPrism(t *testing.T) string {
	bin := filepath.Join(scratch, "prism")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/apache/beam/sdks/v2/go/cmd/prism").CombinedOutput(); err != nil {
		t.Fatalf("go build prism: %v: %s", err, out)
	}
	port := freePort(t)
	cmd := exec.Command(bin, fmt.Sprintf("--job_port=%d", port), "--serve_http=false", "--log_level=warn")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	endpoint := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if c, err := net.Dial("tcp", endpoint); err == nil {
			c.Close()
			return endpoint
		}
		if time.Now().After(deadline) {
			t.Fatalf("prism did not listen on %s", endpoint)
		}
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// setFlags sets Beam's flags for the test and restores them after it.
func setFlags(t *testing.T, values map[string]string) {
	for name, v := range values {
		old := flag.Lookup(name).Value.String()
		if err := flag.Set(name, v); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { flag.Set(name, old) })
	}
}

func TestBadInputs(t *testing.T) {
	in := testInputs(t)
	parts, err := filepath.Glob(in.lbrParts)
	if err != nil || len(parts) < 10 {
		t.Fatalf("parts: %v", err)
	}
	dir := filepath.Join(scratch, "bad")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.perf.data")
	data, err := os.ReadFile(parts[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(truncated, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt.profraw")
	if err := os.WriteFile(corrupt, []byte("\xff\x6c\x70\x72\x6f\x66\x72\x81garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := []string{parts[1], parts[2], parts[3]}
	for _, tc := range []struct {
		name string
		bad  string
	}{{"truncated perf.data", truncated}, {"corrupt profraw", corrupt}} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Inputs: append(slices.Clone(good), tc.bad), Formats: []string{"text"}, Binaries: []string{in.lbrBinary}}
			opts.OutDir = t.TempDir()
			_, err := Run(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("error %v, want one naming %s", err, tc.bad)
			}
			opts.SkipBadInputs = true
			sum, err := Run(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Inputs != 3 || len(sum.Bad) != 1 || !strings.HasPrefix(sum.Bad[0], tc.bad+": ") || len(sum.Written) != 1 {
				t.Errorf("summary %+v, want 3 inputs read, %s bad, 1 file written", sum, tc.bad)
			}
		})
	}
}

// extension is the extension of format's files, as the driver names them.
func extension(t *testing.T, format string) string {
	t.Helper()
	ext, err := driver.Extension(format)
	if err != nil {
		t.Fatal(err)
	}
	return ext
}

// TestOneOpenPerWorker: a worker's readFn reads many recordings of one
// binary and opens it once (its BinaryCache); the Go compiler-sized parts
// reopened it for each before.
func TestOneOpenPerWorker(t *testing.T) {
	in := testInputs(t)
	parts, err := filepath.Glob(in.goParts)
	if err != nil || len(parts) < 50 {
		t.Fatalf("%d Go parts (%v)", len(parts), err)
	}
	f := &readFn{BinaryDirs: []string{filepath.Dir(in.goBinary)}}
	if err := f.Setup(); err != nil {
		t.Fatal(err)
	}
	defer f.Teardown()
	for _, p := range parts[:50] {
		if _, err := f.read(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.cache.Opens(); n != 1 {
		t.Errorf("50 recordings of one binary opened it %d times, want once", n)
	}
}
