package driver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

// shlibRecording is an exact LBR recording (tools/lbrgen under valgrind)
// of testdata/programs/shlibmain.c and its shared library shlib.c, both
// built by gcc-12 -O2 -g -Wl,--emit-relocs: branch stacks that cross from
// the program into the library, back, and into the program again (a
// callback).
type shlibRecording struct {
	dir       string
	main, lib string
	single    string // one process, perf.data (build-id table of every DSO mapped)
	multi     string // 3 processes at their own bases, perf script text
	multiData string // the same as perf.data
}

// recordShlib builds the two binaries and records them (about 10 s).
func recordShlib(t *testing.T) *shlibRecording {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and traces a program")
	}
	testutil.Tools(t, "gcc-12", "valgrind", "objcopy", "go")
	root, err := testutil.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := &shlibRecording{dir: dir, main: filepath.Join(dir, "shlibmain"), lib: filepath.Join(dir, "libshlib.so"),
		single: filepath.Join(dir, "single.perf.data"), multi: filepath.Join(dir, "multi.script"), multiData: filepath.Join(dir, "multi.perf.data")}
	src := filepath.Join(root, "testdata", "programs")
	flags := []string{"-O2", "-g", "-Wl,--emit-relocs"}
	runTool(t, dir, nil, "gcc-12", append(flags, "-fPIC", "-shared", "-o", r.lib, filepath.Join(src, "shlib.c"))...)
	// The program runs from a copy in lbrgen's temporary directory: the
	// library is found by its absolute directory.
	runTool(t, dir, nil, "gcc-12", append(flags, "-o", r.main, filepath.Join(src, "shlibmain.c"), "-L"+dir, "-lshlib", "-Wl,-rpath,"+dir)...)
	lbrgen := filepath.Join(dir, "lbrgen")
	runTool(t, root, nil, "go", "build", "-o", lbrgen, "./tools/lbrgen")
	runTool(t, dir, nil, lbrgen, "-binary", r.main, "-seed", "3", "-flags", "typed", "-period", "1000", "-perfdata", "-dso-buildids",
		"-single", filepath.Join(dir, "single.script"), "-multi", filepath.Join(dir, "multi"), "-procs", "3", "--", "300")
	return r
}

// runInto runs opts with -o a new directory and returns the files written
// there, by name, and the summary.
func runInto(t *testing.T, opts Options) (map[string][]byte, string) {
	t.Helper()
	out := t.TempDir()
	var stderr bytes.Buffer
	opts.Output, opts.Stderr = out, &stderr
	if err := Run(context.Background(), opts); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	files, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	for _, f := range files {
		if got[f.Name()], err = os.ReadFile(filepath.Join(out, f.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return got, stderr.String()
}

// TestLBRSeveralBinaries: branch stacks of a program and its shared
// library in one run give each binary the profile the reference tool
// makes of that binary alone: llvm-profgen-22 --binary B (text profile,
// byte for byte), perf2bolt-22 -p perf.data B (fdata, as sets of lines);
// without --binary, both are found by build id (--binary-dir) and give
// the same files; every format is each binary's alone (eachBinaryAlone),
// and --also writes them all from one read, the bytes of separate runs.
func TestLBRSeveralBinaries(t *testing.T) {
	r := recordShlib(t)
	both := []string{r.main, r.lib}
	t.Run("llvm-profgen", func(t *testing.T) {
		testutil.Tool(t, "llvm-profgen-22")
		got, summary := runInto(t, Options{PerfData: r.single, Binaries: both, Format: "text"})
		for _, b := range both {
			want := runReference(t, "llvm-profgen-22", "--format=text", "--binary="+b, "--perfdata="+r.single, "--output=%o")
			if name := filepath.Base(b) + ".prof"; !bytes.Equal(got[name], want) {
				t.Errorf("%s: %d bytes, llvm-profgen-22 --binary %s %d\n%s", name, len(got[name]), filepath.Base(b), len(want), summary)
			}
		}
	})
	t.Run("perf2bolt", func(t *testing.T) {
		testutil.Tools(t, perf2boltPath, "perf")
		got, summary := runInto(t, Options{PerfData: r.single, Binaries: both, Format: "bolt"})
		for _, b := range both {
			want := runReference(t, perf2boltPath, "-p", r.single, "-o", "%o", b)
			name := filepath.Base(b) + ".fdata"
			if g, w := sortedLines(got[name]), sortedLines(want); !slices.Equal(g, w) {
				t.Errorf("%s: %d lines, perf2bolt-22 %d\n%s", name, len(g), len(w), summary)
			}
		}
	})
	t.Run("build id", func(t *testing.T) {
		found := t.TempDir()
		for _, b := range both {
			runTool(t, found, nil, "cp", b, found)
		}
		for _, format := range []string{"text", "bolt"} {
			want, _ := runInto(t, Options{PerfData: r.single, Binaries: both, Format: format})
			got, summary := runInto(t, Options{PerfData: r.single, BinaryDirs: []string{found}, Format: format})
			sameFiles(t, format, got, want, summary)
		}
	})
	t.Run("each alone", func(t *testing.T) { eachBinaryAlone(t, r) })
	t.Run("also", func(t *testing.T) {
		out := t.TempDir()
		opts := Options{PerfData: r.single, Binaries: both, Format: "text", Output: out, Quiet: true,
			Also: []AlsoOutput{{"bolt", out}, {"gcc", out}, {"bolt-preagg", filepath.Join(out, "%b.pre")}}}
		if err := Run(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		for _, f := range []struct{ format, ext string }{{"text", ".prof"}, {"bolt", ".fdata"}, {"gcc", ".afdo"}, {"bolt-preagg", ".pre"}} {
			alone := mustRunInto(t, Options{PerfData: r.single, Binaries: both, Format: f.format, Output: "ignored"})
			for _, b := range both {
				name := filepath.Base(b)
				got, want := readFile(t, filepath.Join(out, name+f.ext)), alone[name+formatColumns[formatNamed(f.format)].ext]
				if !bytes.Equal(got, want) {
					t.Errorf("%s of %s: %d bytes, the run of it alone %d", f.format, name, len(got), len(want))
				}
			}
		}
	})
}

// eachBinaryAlone: every format LBR input gives, of several processes
// read by chunks (-j 2), writes for each binary the bytes of a run given
// that binary alone.
func eachBinaryAlone(t *testing.T, r *shlibRecording) {
	for _, tt := range []struct {
		name string
		opts Options
	}{
		{"text", Options{Format: "text"}},
		{"extbinary", Options{Format: "extbinary"}},
		{"binary", Options{Format: "binary"}},
		{"gcc", Options{Format: "gcc"}},
		{"bolt", Options{Format: "bolt"}},
		{"bolt-preagg", Options{Format: "bolt-preagg"}},
		{"skip-symbolization", Options{SkipSymbolization: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.PerfScript, opts.Jobs, opts.Binaries = r.multi, 2, []string{r.main, r.lib}
			got, summary := runInto(t, opts)
			want := map[string][]byte{}
			for _, b := range opts.Binaries {
				alone := tt.opts
				alone.PerfScript, alone.Jobs, alone.Binaries = r.multi, 1, []string{b}
				for name, data := range mustRunInto(t, alone) {
					want[name] = data
				}
			}
			sameFiles(t, tt.name, got, want, summary)
		})
	}
}

func mustRunInto(t *testing.T, opts Options) map[string][]byte {
	t.Helper()
	got, _ := runInto(t, opts)
	return got
}

// sameFiles checks that got holds want's files, and no others, byte for
// byte.
func sameFiles(t *testing.T, what string, got, want map[string][]byte, summary string) {
	t.Helper()
	if len(got) != len(want) || len(want) == 0 {
		t.Errorf("%s: %d files, want %d\n%s", what, len(got), len(want), summary)
	}
	for name, w := range want {
		if !bytes.Equal(got[name], w) {
			t.Errorf("%s: %s: %d bytes, want %d\n%s", what, name, len(got[name]), len(w), summary)
		}
	}
}

const perf2boltPath = "/usr/lib/llvm-22/bin/perf2bolt"

// runReference runs a reference tool whose output file is the argument
// "%o" (or part of one) and returns what it wrote.
func runReference(t *testing.T, name string, args ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "ref")
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "%o", out)
	}
	if msg, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func sortedLines(b []byte) []string {
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	slices.Sort(lines)
	return lines
}
