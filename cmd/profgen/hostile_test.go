package main

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/testutil"
)

// profgenBinary builds the profgen command into the test's temporary
// directory, for the tests that run it as a child process.
func profgenBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "profgen")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// wantFailure checks what every rejected input must give: exit status 1,
// one line on stderr of at most 300 characters holding want, and nothing
// at or beside the output path.
func wantFailure(t *testing.T, out string, err error, stderr, want string) {
	t.Helper()
	var ee *exec.ExitError
	if err == nil || !errorsAs(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	msg := strings.TrimSuffix(stderr, "\n")
	if strings.Contains(msg, "\n") || len(msg) > 300 || !strings.Contains(msg, want) {
		t.Errorf("stderr %q: want one line of at most 300 characters with %q", msg, want)
	}
	if left := outputsLeft(out); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

func errorsAs(err error, ee **exec.ExitError) bool {
	e, ok := err.(*exec.ExitError)
	*ee = e
	return ok
}

// outputsLeft lists the output file and its temporary files.
func outputsLeft(out string) []string {
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "*"+filepath.Base(out)+"*"))
	return left
}

func runProfgen(t *testing.T, bin string, args ...string) (stderr string, err error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var b bytes.Buffer
	cmd.Stderr = &b
	err = cmd.Run()
	return b.String(), err
}

// TestHostileIndexedOffsets: show and merge of an indexed profile whose
// hash-table or binary-ids offset is near 2^64 (they panicked) fail with
// the file and the header offset.
func TestHostileIndexedOffsets(t *testing.T) {
	bin := profgenBinary(t)
	good, err := os.ReadFile("testdata/instr.profdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		at   int
		want string
	}{{32, "offset 0x20: hash table offset"}, {48, "offset 0x30: binary ids offset"}} {
		dir := t.TempDir()
		bad := append([]byte(nil), good...)
		binary.LittleEndian.PutUint64(bad[tt.at:], 1<<64-1)
		in := filepath.Join(dir, "bad.profdata")
		os.WriteFile(in, bad, 0o644)
		out := filepath.Join(dir, "out.profdata")
		stderr, err := runProfgen(t, bin, "merge", "-o", out, in)
		wantFailure(t, out, err, lastLine(stderr), in+": "+tt.want)
		stderr, err = runProfgen(t, bin, "show", in)
		wantFailure(t, out, err, stderr, in+": "+tt.want)
	}
}

// lastLine drops merge's progress lines before its error.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1] + "\n"
}

// bigTextProfile writes a text sample profile whose extbinary/text output
// takes a few hundred milliseconds to write.
func bigTextProfile(t *testing.T, path string) {
	var b bytes.Buffer
	for i := range 200000 {
		fmt.Fprintf(&b, "function_number_%d:%d:1\n", i, 1000+i)
		for l := range 10 {
			fmt.Fprintf(&b, " %d: %d\n", l+1, i+l)
		}
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSignalDuringWrite sends SIGINT, SIGTERM and SIGHUP to profgen merge
// while it writes its output: the process ends by the signal and leaves
// neither the output nor its temporary file. A signal that lands after
// the output is complete (a loaded host can delay the test that long) is
// tried again, up to five times.
func TestSignalDuringWrite(t *testing.T) {
	bin := profgenBinary(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "big.txt")
	bigTextProfile(t, in)
	out := filepath.Join(dir, "out.txt")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		for try := 1; ; try++ {
			ws, err := signalMerge(bin, in, out, sig)
			if ws.Exited() && ws.ExitStatus() == 0 && try < 5 {
				os.Remove(out) // finished before the signal came
				continue
			}
			if !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("%v: profgen ended with %v, want the signal (try %d)", sig, err, try)
			}
			if left := outputsLeft(out); len(left) > 0 {
				t.Errorf("%v: left behind %v", sig, left)
			}
			break
		}
	}
}

// signalMerge runs profgen merge of in to out and sends it sig once its
// temporary output file appears.
func signalMerge(bin, in, out string, sig syscall.Signal) (syscall.WaitStatus, error) {
	cmd := exec.Command(bin, "merge", "--text", "-o", out, in)
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	sent := waitForTemp(out, 2*time.Minute, func() { cmd.Process.Signal(sig) }) // a loaded host takes 20 s to read the input
	err := cmd.Wait()
	if !sent {
		err = fmt.Errorf("no temporary file seen while profgen ran (%v)", err)
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return ws, err
}

// waitForTemp polls for a temporary file of out and calls send once it
// appears; it reports whether it did.
func waitForTemp(out string, limit time.Duration, send func()) bool {
	pattern := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".profgen-tmp-*")
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(time.Millisecond) {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			send()
			return true
		}
	}
	return false
}

// TestOutputThroughLinks: -o through a symlink writes the link's target
// and keeps the link; -o /dev/stdout writes the redirected file.
func TestOutputThroughLinks(t *testing.T) {
	bin := profgenBinary(t)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	os.WriteFile(in, []byte("main:10:1\n 1: 10\n"), 0o644)
	target := filepath.Join(dir, "target.txt")
	link := filepath.Join(dir, "link.txt")
	os.Symlink(target, link)
	if _, err := runProfgen(t, bin, "merge", "--text", "-o", link, in); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced (%v)", err)
	}
	if b, _ := os.ReadFile(target); !strings.HasPrefix(string(b), "main:10:1") {
		t.Errorf("target holds %q", b)
	}

	redirect := filepath.Join(dir, "redirect.txt")
	f, err := os.Create(redirect)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(bin, "merge", "--text", "-o", "/dev/stdout", in)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = f, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	if b, _ := os.ReadFile(redirect); !strings.HasPrefix(string(b), "main:10:1") {
		t.Errorf("the redirected file holds %q", b)
	}
	if fi, err := os.Lstat("/dev/stdout"); err == nil && fi.Mode().IsRegular() {
		t.Errorf("/dev/stdout became a regular file")
	}
}

// TestHostilePerfDataHeader: a perf.data whose data size is 2^64-1 (perf
// script hung on it, and profgen with it) fails at once, naming the file
// and the header field, without starting perf.
func TestHostilePerfDataHeader(t *testing.T) {
	good, err := os.ReadFile("../../testdata/callstack/forky.perf.data")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.perf.data")
	binary.LittleEndian.PutUint64(good[48:], 1<<64-1)
	os.WriteFile(bad, good, 0o644)
	out := filepath.Join(dir, "out.prof")
	bin := profgenBinary(t)
	start := time.Now()
	stderr, err := runProfgen(t, bin, "--perfdata", bad, "--binary", "../../testdata/callstack/forky", "--perf-binary", "/bin/false", "-o", out)
	wantFailure(t, out, err, stderr, bad+": perf.data header at byte 40: data section")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestCounterPtrOutOfRange: merge --binary-file with a binary one of whose
// __llvm_covdata records points outside __llvm_prf_cnts fails naming the
// binary and the record (it was skipped silently); --failure-mode=all
// skips and lists the raws.
func TestCounterPtrOutOfRange(t *testing.T) {
	corr := testutil.DataDir(t, "instr", "corr")
	profgen := profgenBinary(t)
	bin, err := os.ReadFile(filepath.Join(corr, "binary"))
	if err != nil {
		t.Fatal(err)
	}
	ef, err := elf.NewFile(bytes.NewReader(bin))
	if err != nil {
		t.Fatal(err)
	}
	covdata := ef.Section("__llvm_covdata")
	binary.LittleEndian.PutUint64(bin[covdata.Offset+16:], 1) // record 0's CounterPtr
	dir := t.TempDir()
	badBin := filepath.Join(dir, "binary")
	os.WriteFile(badBin, bin, 0o755)
	raws, _ := filepath.Glob(filepath.Join(corr, "raw", "*.profraw"))
	if len(raws) == 0 {
		t.Skip("no correlated raws (make testdata)")
	}
	raw := raws[0] // any one: their names are the PIDs of the run that made them
	out := filepath.Join(dir, "out.profdata")
	want := fmt.Sprintf("%s: offset %#x: __llvm_covdata record 0", badBin, covdata.Offset)
	stderr, err := runProfgen(t, profgen, "merge", "--binary-file", badBin, "-o", out, raw)
	wantFailure(t, out, err, lastLine(stderr), want)
	stderr, err = runProfgen(t, profgen, "merge", "--failure-mode=all", "--binary-file", badBin, "-o", out, raw)
	if err == nil || !strings.Contains(stderr, "skipped "+raw) || !strings.Contains(stderr, "CounterPtr 0x1 out of range") {
		t.Errorf("--failure-mode=all: %v\n%s", err, stderr)
	}
}
