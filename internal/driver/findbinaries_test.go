package driver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/profgen/profgen/internal/binary"
)

// The two-binary program: app's own loop, and a hot function of the
// shared library it calls.
const (
	libSource = `
__attribute__((noinline)) long lib_work(long n) {
	long s = 0;
	for (long i = 0; i < n; i++) s += i * i % 7;
	return s;
}
`
	appSource = `
#include <stdlib.h>
long lib_work(long n);
__attribute__((noinline)) long app_work(long n) {
	long s = 0;
	for (long i = 0; i < n; i++) s += i % 13;
	return s;
}
int main(int argc, char **argv) {
	long n = atol(argv[1]), s = 0;
	for (int r = 0; r < 20; r++) s += lib_work(n) + app_work(n);
	return s == 42;
}
`
)

// twoBinaries is a recording of app and its libbid.so.
type twoBinaries struct {
	dir, app, lib string
	appID, libID  string
	perfData      string // perf.data with the build-id table
	mmapData      string // perf record --buildid-mmap: build ids in MMAP2
	script        string // perf script --show-mmap-events of mmapData
}

// recordTwoBinaries builds app and libbid.so with gcc-12 and records them.
func recordTwoBinaries(t *testing.T) *twoBinaries {
	t.Helper()
	for _, tool := range []string{"gcc-12", "perf"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	dir := t.TempDir()
	tb := &twoBinaries{dir: dir, app: filepath.Join(dir, "app"), lib: filepath.Join(dir, "libbid.so")}
	writeTestFile(t, filepath.Join(dir, "lib.c"), libSource)
	writeTestFile(t, filepath.Join(dir, "app.c"), appSource)
	flags := []string{"-O1", "-g", "-fno-omit-frame-pointer", "-Wl,--build-id"}
	runTool(t, dir, nil, "gcc-12", append(flags, "-shared", "-fPIC", "-o", tb.lib, "lib.c")...)
	runTool(t, dir, nil, "gcc-12", append(flags, "-o", tb.app, "app.c", "-L.", "-lbid", "-Wl,-rpath,"+dir)...)
	tb.appID, tb.libID = buildIDOf(t, tb.app), buildIDOf(t, tb.lib)
	tb.perfData, tb.mmapData = filepath.Join(dir, "perf.data"), filepath.Join(dir, "mmap.perf.data")
	record := []string{"record", "-q", "--no-buildid-cache", "-e", "cpu-clock", "-F", "2999", "-g"}
	for _, out := range []struct {
		path  string
		extra []string
	}{{tb.perfData, nil}, {tb.mmapData, []string{"--buildid-mmap"}}} {
		args := append(append(append([]string{}, record...), out.extra...), "-o", out.path, tb.app, "3000000")
		if b, err := exec.Command("perf", args...).CombinedOutput(); err != nil {
			t.Skipf("perf record does not work here: %v\n%s", err, b)
		}
	}
	text, err := exec.Command("perf", "script", "-i", tb.mmapData, "-F", "pid,time,period,event,ip,sym,dso", "--show-mmap-events", "--show-task-events").Output()
	if err != nil {
		t.Fatalf("perf script: %v", err)
	}
	tb.script = filepath.Join(dir, "mmap.script")
	writeTestFile(t, tb.script, string(text))
	return tb
}

func writeTestFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runTool(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func buildIDOf(t *testing.T, path string) string {
	t.Helper()
	id, err := binary.ReadBuildID(path)
	if err != nil || len(id) == 0 {
		t.Fatalf("%s: build id %x, %v", path, id, err)
	}
	return fmt.Sprintf("%x", id)
}

// convertAll converts each input of tb to pprof and to LLVM text (one
// file per binary, -o DIR) and returns the outputs by name, and stderr.
func (tb *twoBinaries) convertAll(t *testing.T, opts Options) (map[string][]byte, string) {
	t.Helper()
	outs := map[string][]byte{}
	var stderr bytes.Buffer
	for _, in := range []struct{ name, perfData, script string }{
		{"table", tb.perfData, ""}, {"mmap2", tb.mmapData, ""}, {"script", "", tb.script},
	} {
		for _, format := range []string{"pprof", "text"} {
			out := t.TempDir()
			o := opts
			o.PerfData, o.PerfScript, o.Format, o.Stderr = in.perfData, in.script, format, &stderr
			o.Output = out
			if format == "pprof" {
				o.Output = filepath.Join(out, "all.pb.gz")
			}
			if err := Run(context.Background(), o); err != nil {
				t.Fatalf("%s %s: %v\n%s", in.name, format, err, stderr.String())
			}
			files, _ := os.ReadDir(out)
			for _, f := range files {
				data, _ := os.ReadFile(filepath.Join(out, f.Name()))
				outs[in.name+"/"+f.Name()] = data
			}
		}
	}
	return outs, stderr.String()
}

// sameOutputs checks that got holds want's files byte for byte.
func sameOutputs(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	if len(got) != len(want) || len(want) != 9 { // 3 inputs × (pprof + 2 text profiles)
		t.Errorf("%d outputs, want %d (9)", len(got), len(want))
	}
	for name, w := range want {
		if !bytes.Equal(got[name], w) {
			t.Errorf("%s: %d bytes, want the %d of the run with --binary", name, len(got[name]), len(w))
		}
	}
}

// noLookupEnv keeps the machine's perf cache and debuginfod servers out.
func noLookupEnv(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("DEBUGINFOD_URLS", "")
	t.Setenv("DEBUGINFOD_CACHE_PATH", t.TempDir())
}

// TestFindBinariesByBuildID: without --binary, app and libbid.so are found
// by their build ids, through a perf build-id cache and through a real
// debuginfod server, for perf.data with the build-id table, perf.data
// with build ids in MMAP2 and the perf script text of the latter; the
// profiles are byte-identical to those of the runs given --binary.
func TestFindBinariesByBuildID(t *testing.T) {
	tb := recordTwoBinaries(t)
	noLookupEnv(t)
	want, _ := tb.convertAll(t, Options{Binaries: []string{tb.app, tb.lib}})

	t.Run("perf build-id cache", func(t *testing.T) {
		home := t.TempDir()
		for _, bin := range []string{tb.app, tb.lib} {
			runTool(t, tb.dir, []string{"HOME=" + home}, "perf", "buildid-cache", "-a", bin)
		}
		if _, err := os.Stat(filepath.Join(home, ".debug", ".build-id", tb.appID[:2], tb.appID[2:])); err != nil {
			t.Fatalf("perf buildid-cache: %v", err)
		}
		t.Setenv("HOME", home) // the default: ~/.debug
		got, _ := tb.convertAll(t, Options{})
		sameOutputs(t, got, want)
	})
	t.Run("stripped, DWARF in perf's debug file", func(t *testing.T) {
		cache := t.TempDir()
		for _, bin := range []struct{ path, id string }{{tb.app, tb.appID}, {tb.lib, tb.libID}} {
			entry := filepath.Join(cache, bin.path, bin.id)
			if err := os.MkdirAll(entry, 0o755); err != nil {
				t.Fatal(err)
			}
			runTool(t, tb.dir, nil, "objcopy", "--strip-debug", bin.path, filepath.Join(entry, "elf"))
			data, _ := os.ReadFile(bin.path)
			writeTestFile(t, filepath.Join(entry, "debug"), string(data))
			link := filepath.Join(cache, ".build-id", bin.id[:2], bin.id[2:])
			os.MkdirAll(filepath.Dir(link), 0o755)
			if err := os.Symlink(entry, link); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := tb.convertAll(t, Options{BinaryDirs: []string{cache}})
		sameOutputs(t, got, want)
	})
	t.Run("debuginfod", func(t *testing.T) {
		served := t.TempDir()
		for _, bin := range []string{tb.app, tb.lib} {
			data, _ := os.ReadFile(bin)
			writeTestFile(t, filepath.Join(served, filepath.Base(bin)), string(data))
		}
		url := startDebuginfod(t, served, tb.appID, tb.libID)
		cache := t.TempDir()
		t.Setenv("DEBUGINFOD_URLS", url)
		t.Setenv("DEBUGINFOD_CACHE_PATH", cache)
		got, _ := tb.convertAll(t, Options{BinaryDirs: []string{t.TempDir()}})
		sameOutputs(t, got, want)
		if _, err := os.Stat(filepath.Join(cache, tb.libID, "executable")); err != nil {
			t.Errorf("not in the client cache: %v", err)
		}
	})
}

// TestBinaryNotFound: app missing from the only directory searched is
// named on one line with its build id and recorded path, and the samples
// with frames only in it are counted as dropped.
func TestBinaryNotFound(t *testing.T) {
	tb := recordTwoBinaries(t)
	noLookupEnv(t)
	flat := t.TempDir()
	data, _ := os.ReadFile(tb.lib)
	writeTestFile(t, filepath.Join(flat, "some-name"), string(data))
	var stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "all.pb.gz")
	err := Run(context.Background(), Options{PerfData: tb.perfData, BinaryDirs: []string{flat}, Format: "pprof", Output: out, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	lines := strings.Split(stderr.String(), "\n")
	var named []string
	for _, l := range lines {
		if strings.Contains(l, tb.appID) {
			named = append(named, l)
		}
	}
	if len(named) != 1 || !strings.Contains(named[0], tb.app) || !strings.Contains(named[0], "not found in "+flat) {
		t.Errorf("lines naming app's build id: %q\n%s", named, stderr.String())
	}
	if !strings.Contains(stderr.String(), "with frames only in binaries not found by build id") ||
		!strings.Contains(stderr.String(), "leaf samples in binaries not found: app ") {
		t.Errorf("no counted drop:\n%s", stderr.String())
	}

	err = Run(context.Background(), Options{PerfData: tb.perfData, BinaryDirs: []string{t.TempDir()}, Format: "pprof", Output: out, Stderr: &stderr})
	if err == nil || !strings.Contains(err.Error(), "no usable samples") {
		t.Errorf("nothing found: %v", err)
	}
}

// startDebuginfod serves dir with Debian's debuginfod on a free port of
// 127.0.0.1 until the test ends, and returns its URL once it serves the
// files of ids.
func startDebuginfod(t *testing.T, dir string, ids ...string) string {
	t.Helper()
	if _, err := exec.LookPath("debuginfod"); err != nil {
		t.Skip("no debuginfod")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var log bytes.Buffer
	cmd := exec.Command("debuginfod", "-F", dir, "-p", fmt.Sprint(port), "-d", filepath.Join(t.TempDir(), "db.sqlite"), "-t", "0", "-g", "0")
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for _, id := range ids {
		waitServed(t, url+"/buildid/"+id+"/executable", &log)
	}
	return url
}

// waitServed polls url until it answers 200 (debuginfod has scanned).
func waitServed(t *testing.T, url string, log *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(url) // debuginfod answers GET only
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("debuginfod did not serve %s in 60 s:\n%s", url, log.String())
}
