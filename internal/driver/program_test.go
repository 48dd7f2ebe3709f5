package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestRankRecorded: the program perf record ran comes first, found by its
// path or base name in any argument's words; else the first one exec'd
// (by its command name, cut to 15 bytes); else the most leaf samples.
func TestRankRecorded(t *testing.T) {
	bins := []recordedBinary{
		{path: "/tmp/w/app", leafSamples: 10},
		{path: "/tmp/w/libbid.so", leafSamples: 30},
		{path: "/tmp/w/libc.so.6", leafSamples: 2},
		{path: "/tmp/w/a-very-long-program-name", leafSamples: 1},
	}
	tests := []struct {
		name           string
		cmdline, execs []string
		first          string
		why            string
	}{
		{"no command line, no exec (perf script)", nil, nil, "/tmp/w/libbid.so", "the most samples, 30"},
		{"exec'd", nil, []string{"perf-exec", "sh", "app"}, "/tmp/w/app", "the program the recording exec'd"},
		{"exec'd, long name", nil, []string{"a-very-long-pro"}, "/tmp/w/a-very-long-program-name", "the program the recording exec'd"},
		{"relative path", []string{"/usr/bin/perf", "record", "-g", "-o", "app.data", "./app", "3000"}, nil, "/tmp/w/app", "the program perf record ran"},
		{"full path", []string{"/usr/bin/perf", "record", "--", "/tmp/w/app"}, []string{"libbid.so"}, "/tmp/w/app", "the program perf record ran"},
		{"sh -c", []string{"/usr/bin/perf", "record", "--", "sh", "-c", "./app 3000 >/dev/null; wait"}, nil, "/tmp/w/app", "the program perf record ran"},
		{"perf record -p: no program", []string{"/usr/bin/perf", "record", "-p", "1234"}, nil, "/tmp/w/libbid.so", "the most samples, 30"},
		{"perf itself is not the program", []string{"/tmp/w/app", "record", "-a"}, nil, "/tmp/w/libbid.so", "the most samples, 30"},
	}
	for _, tt := range tests {
		order, why := rankRecorded(recording{binaries: bins, cmdline: tt.cmdline, execs: tt.execs})
		if len(order) != len(bins) || order[0].path != tt.first || why != tt.why {
			t.Errorf("%s: first %s (%s), want %s (%s)", tt.name, order[0].path, why, tt.first, tt.why)
		}
	}
}

// TestOneFileOfSeveralBinaries: without --binary, -o FILE of a recording
// of app and libbid.so writes the profile of the program (app, named by
// perf.data's command line; for perf script, the command exec'd), the same as --binary of it, and says so on one line; -o DIR/
// that does not exist is made and gets one file per binary.
func TestOneFileOfSeveralBinaries(t *testing.T) {
	tb := recordTwoBinaries(t)
	noLookupEnv(t)
	cache := t.TempDir()
	for _, bin := range []string{tb.app, tb.lib} {
		runTool(t, tb.dir, []string{"HOME=" + cache}, "perf", "buildid-cache", "-a", bin)
	}
	t.Setenv("HOME", cache)
	chosen := regexp.MustCompile(`profgen: -o \S+ is one file: it holds the profile of (\S+) \(([^)]*)\); left out: (.*) \(-o DIR/`)
	for _, in := range []struct{ name, perfData, script, why string }{
		{"table", tb.perfData, "", "the program perf record ran"},
		{"mmap2", tb.mmapData, "", "the program perf record ran"},
		{"script", "", tb.script, "the program the recording exec'd"},
	} {
		var stderr bytes.Buffer
		out := filepath.Join(t.TempDir(), "app.prof")
		opts := Options{PerfData: in.perfData, PerfScript: in.script, Format: "text", Output: out, Stderr: &stderr}
		if err := Run(context.Background(), opts); err != nil {
			t.Fatalf("%s: %v\n%s", in.name, err, stderr.String())
		}
		m := chosen.FindStringSubmatch(stderr.String())
		if m == nil || len(regexp.MustCompile(`is one file`).FindAllString(stderr.String(), -1)) != 1 {
			t.Fatalf("%s: not one line saying which binary:\n%s", in.name, stderr.String())
		}
		if m[1] != tb.app || !bytes.HasPrefix([]byte(m[2]), []byte(in.why)) {
			t.Errorf("%s: chose %s (%s), want %s (%s)", in.name, m[1], m[2], tb.app, in.why)
		}
		t.Logf("%s: %s", in.name, m[0])
		other := map[string]string{tb.app: tb.lib, tb.lib: tb.app}[m[1]]
		if !bytes.Contains([]byte(m[3]), []byte(other)) {
			t.Errorf("%s: left out %q, want %s among them", in.name, m[3], other)
		}
		got, _ := os.ReadFile(out)
		want := filepath.Join(t.TempDir(), "want.prof")
		opts.Binaries, opts.Output, opts.Stderr = []string{m[1]}, want, &bytes.Buffer{}
		if err := Run(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		if w, _ := os.ReadFile(want); len(got) == 0 || !bytes.Equal(got, w) {
			t.Errorf("%s: %d bytes, want the %d of --binary %s", in.name, len(got), len(w), m[1])
		}
	}

	dir := filepath.Join(t.TempDir(), "new", "profiles") + "/"
	var stderr bytes.Buffer
	if err := Run(context.Background(), Options{PerfData: tb.perfData, Format: "text", Output: dir, Stderr: &stderr}); err != nil {
		t.Fatalf("-o %s: %v\n%s", dir, err, stderr.String())
	}
	for _, name := range []string{"app.prof", "libbid.so.prof"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("-o %s: %v", dir, err)
		}
	}
}
