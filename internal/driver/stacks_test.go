package driver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/aggregate"
)

// stackProfile converts call-stack input (forky, text by default) and
// returns the output bytes.
func stackProfile(t *testing.T, opts Options) []byte {
	t.Helper()
	if len(opts.Binaries) == 0 {
		opts.Binaries = []string{callstackDir + "forky"}
	}
	if opts.Format == "" {
		opts.Format = "text"
	}
	return convert(t, opts)
}

// TestCallStackInputAnyReader: stdin, a FIFO and a script that starts with
// 1 MB of MMAP records give the profile the file gives: the input kind is
// decided per record, never by sniffing a prefix.
func TestCallStackInputAnyReader(t *testing.T) {
	script := callstackDir + "forky.pid-ip-sym-dso-tasks.script"
	data, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	want := stackProfile(t, Options{PerfScript: script})
	if !bytes.Contains(want, []byte("spin:")) {
		t.Fatalf("no spin in the profile:\n%s", want)
	}
	t.Run("stdin", func(t *testing.T) {
		got := stackProfile(t, Options{PerfScript: "-", Stdin: bytes.NewReader(data)})
		if !bytes.Equal(got, want) {
			t.Error("profile from stdin differs")
		}
	})
	t.Run("fifo", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip(err)
		}
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				f.Write(data)
				f.Close()
			}
		}()
		if got := stackProfile(t, Options{PerfScript: fifo}); !bytes.Equal(got, want) {
			t.Error("profile from a FIFO differs")
		}
	})
	t.Run("after 1 MB of MMAP records", func(t *testing.T) {
		var b bytes.Buffer
		for i := 0; b.Len() < 1<<20; i++ {
			fmt.Fprintf(&b, "    1 PERF_RECORD_MMAP2 1/1: [0x7f%08x000(0x1000) @ 0 fe:00 1 0]: r-xp /usr/lib/lib%d.so\n", i, i)
		}
		b.Write(data)
		path := filepath.Join(t.TempDir(), "big.script")
		os.WriteFile(path, b.Bytes(), 0o644)
		if got := stackProfile(t, Options{PerfScript: path}); !bytes.Equal(got, want) {
			t.Error("profile after 1 MB of MMAP records differs")
		}
	})
}

// TestCallStackPIDs: --pid keeps the samples of the processes asked for;
// the processes' profiles add up to the whole.
func TestCallStackPIDs(t *testing.T) {
	script := callstackDir + "forky.pid-ip-sym-dso-tasks.script"
	total := sampleCount(t, stackProfile(t, Options{PerfScript: script, Format: "pprof"}))
	sum := int64(0)
	for _, pid := range []int32{9496, 9497, 9498, 9499, 9500, 9501} {
		sum += sampleCount(t, stackProfile(t, Options{PerfScript: script, Format: "pprof", PIDs: []int32{pid}}))
	}
	// the shell that started them has no sample in forky
	err := Run(context.Background(), Options{PerfScript: script, Binaries: []string{callstackDir + "forky"},
		Output: filepath.Join(t.TempDir(), "o"), PIDs: []int32{9494}})
	if !errors.Is(err, ErrNoSamples) || !strings.Contains(err.Error(), "not selected by --pid") {
		t.Errorf("--pid of a process without samples in forky: %v", err)
	}
	if sum != total || total == 0 {
		t.Errorf("per-pid profiles sum to %d samples, the whole has %d", sum, total)
	}
}

func sampleCount(t *testing.T, data []byte) int64 {
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatal(err)
	}
	n := int64(0)
	for _, s := range p.Sample {
		n += s.Value[0]
	}
	return n
}

// TestCallStackDebugBinary: DWARF from --debug-binary gives the profile the
// binary's own DWARF gives.
func TestCallStackDebugBinary(t *testing.T) {
	dir := t.TempDir()
	bin, debug := filepath.Join(dir, "forky"), filepath.Join(dir, "forky.debug")
	for _, args := range [][]string{
		{"--only-keep-debug", callstackDir + "forky", debug},
		{"--strip-debug", callstackDir + "forky", bin},
	} {
		if out, err := exec.Command("objcopy", args...).CombinedOutput(); err != nil {
			t.Skipf("objcopy: %v %s", err, out)
		}
	}
	script := callstackDir + "forky.pid-ip-sym-dso-tasks.script"
	want := stackProfile(t, Options{PerfScript: script})
	got := stackProfile(t, Options{PerfScript: script, Binaries: []string{bin}, DebugBinary: debug})
	if !bytes.Equal(got, want) {
		t.Errorf("profile with --debug-binary differs:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(string(want), "spin") {
		t.Error("no spin")
	}
}

// countingNamer counts what the aggregation asks its namer.
type countingNamer struct {
	names, prefetches int
	aggregate.Namer
}

func (c *countingNamer) Name(dso string, kernel bool, addr uint64) string {
	c.names++
	return c.Namer.Name(dso, kernel, addr)
}

func (c *countingNamer) Prefetch(dso string, kernel bool) { c.prefetches++ }

// TestOnlyPprofNamesFrames: the frames outside the binary of a perf.data
// read natively are named (their DSOs' symbols, kallsyms, read) for a
// pprof profile, which shows them, and not for an LLVM profile.
func TestOnlyPprofNamesFrames(t *testing.T) {
	for _, tt := range []struct {
		format string
		named  bool
	}{{"pprof", true}, {"text", false}, {"extbinary", false}} {
		t.Run(tt.format, func(t *testing.T) {
			opts := newPlan(Options{Binaries: []string{callstackDir + "forky"}, PerfData: callstackDir + "forky.perf.data",
				Format: tt.format, Output: os.DevNull, Quiet: true})
			bins, err := openBinaries(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			defer bins.Close()
			in, err := openInput(context.Background(), opts, bins)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			namer := &countingNamer{Namer: in.names}
			in.names = namer
			res, err := scanSequential(in, opts, bins, newPrefetcher(opts, bins))
			if err != nil {
				t.Fatal(err)
			}
			if named := namer.names+namer.prefetches > 0; named != tt.named {
				t.Errorf("namer asked %d names, %d prefetches; want some: %v", namer.names, namer.prefetches, tt.named)
			}
			if named := len(res.stacks.Symbols) > 0; named != tt.named {
				t.Errorf("%d frames named, want some: %v", len(res.stacks.Symbols), tt.named)
			}
		})
	}
}

// TestTimePhasesOfCallStacks: --time-profgen reports the repair of call
// stacks as a phase of its own, between reading and writing.
func TestTimePhasesOfCallStacks(t *testing.T) {
	var stderr bytes.Buffer
	opts := Options{PerfScript: callstackDir + "forky.pid-ip-sym-dso-tasks.script", Binaries: []string{callstackDir + "forky"},
		Format: "text", Output: filepath.Join(t.TempDir(), "out"), Stderr: &stderr}
	opts.LLVM.TimePhases = true
	if err := Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	var phases []string
	for _, line := range strings.Split(stderr.String(), "\n") {
		if i := strings.Index(line, "%)  "); i >= 0 {
			phases = append(phases, line[i+len("%)  "):])
		}
	}
	want := []string{"Load binary", "Read input", "Repair call stacks", "Generate and write profile", "Total"}
	if !slices.Equal(phases, want) {
		t.Errorf("phases %q, want %q\n%s", phases, want, stderr.String())
	}
}

// TestOneFileOfAllNamed: pprof and the call-stack address profile are one
// file for every binary: -o a directory (made when it ends in a slash) or
// a %b pattern names it by the first binary, as the per-binary formats
// name theirs.
func TestOneFileOfAllNamed(t *testing.T) {
	script := callstackDir + "forky.pid-ip-sym-dso-tasks.script"
	for _, tt := range []struct {
		format, out, want string
		skip              bool
	}{
		{format: "pprof", out: "new/", want: "new/forky.pb.gz"},
		{format: "pprof", out: "%b.pgo", want: "forky.pgo"},
		{format: "pprof", out: "one.pprof", want: "one.pprof"},
		{out: "new/", skip: true, want: "new/forky.raw"},
		{out: "%b.addr", skip: true, want: "forky.addr"},
	} {
		dir := t.TempDir()
		err := Run(context.Background(), Options{PerfScript: script, Binaries: []string{callstackDir + "forky"},
			Format: tt.format, SkipSymbolization: tt.skip, Output: dir + "/" + tt.out, Stderr: io.Discard})
		if err != nil {
			t.Fatalf("-o %s: %v", tt.out, err)
		}
		if _, err := os.Stat(filepath.Join(dir, tt.want)); err != nil {
			t.Errorf("-o %s --format=%s: %v", tt.out, tt.format, err)
		}
	}
}
