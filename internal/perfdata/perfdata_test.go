package perfdata

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/testutil"
)

const forkyData = "../../testdata/callstack/forky.perf.data"

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in   string
		want Version
		ok   bool
	}{
		{"perf version 6.1.187\n", Version{6, 1}, true},
		{"perf version 5.10.g1234abcd", Version{5, 10}, true},
		{"perf version 4.9", Version{4, 9}, true},
		{"perf: command not found", Version{}, false},
		{"perf version x.y", Version{}, false},
	}
	for _, tt := range tests {
		got, err := ParseVersion(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseVersion(%q) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	if !(Version{4, 9}).Less(MinVersion) || (Version{6, 1}).Less(MinVersion) {
		t.Error("MinVersion ordering wrong")
	}
}

func TestReadContent(t *testing.T) {
	c, err := ReadContent(forkyData)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Callchain || c.BranchStack {
		t.Errorf("ReadContent = %+v, want call chains and no branch stacks", c)
	}
}

func TestReadContentErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("not a perf file at all, really not one"), 0o644)
	for _, p := range []string{junk, filepath.Join(dir, "missing")} {
		if _, err := ReadContent(p); err == nil {
			t.Errorf("ReadContent(%s): no error", p)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.data")
	os.WriteFile(junk, []byte("hello"), 0o644)
	tests := []struct {
		name, path, perf, want string
	}{
		{"missing file", filepath.Join(dir, "nope.data"), "", "no such file"},
		{"not perf.data", junk, "", "not a perf.data file"},
		{"missing perf", forkyData, filepath.Join(dir, "no-perf"), "perf binary"},
		{"old perf", forkyData, fakePerf(t, dir, "perf version 3.10.0"), "too old"},
		{"perf fails", forkyData, fakePerf(t, dir, "perf version 6.1.0"), "perf script failed (exit status 3): boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(context.Background(), tt.path, nil, Options{Perf: tt.perf})
			if err == nil {
				_, err = io.ReadAll(r)
				r.Close()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("error has several lines: %q", err)
			}
		})
	}
}

// fakePerf writes a shell script that answers `version` with version and
// fails `script` with "boom" on stderr.
func fakePerf(t *testing.T, dir, version string) string {
	p := filepath.Join(dir, strings.ReplaceAll(version, " ", "_"))
	script := "#!/bin/sh\nif [ \"$1\" = version ]; then echo '" + version + "'; exit 0; fi\n" +
		"echo 'some warning' >&2; echo 'boom' >&2; exit 3\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenRealPerf(t *testing.T) {
	testutil.Tool(t, "perf")
	r, err := Open(context.Background(), forkyData, []string{"-F", "pid,ip,sym,dso"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../testdata/callstack/forky.pid-ip-sym-dso.script")
	if err != nil {
		t.Fatal(err)
	}
	// Symbol names depend on the files perf finds on this machine; the
	// layout (one line per record and frame) does not.
	if g, w := strings.Count(string(got), "\n"), strings.Count(string(want), "\n"); g != w {
		t.Errorf("perf script through the pipe has %d lines, the committed script %d", g, w)
	}
}

func TestErrPerfNotFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Open(context.Background(), forkyData, nil, Options{})
	if !errors.Is(err, ErrPerfNotFound) {
		t.Errorf("error = %v, want ErrPerfNotFound", err)
	}
}

func FuzzReadContent(f *testing.F) {
	b, err := os.ReadFile(forkyData)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b[:min(len(b), 2048)])
	f.Fuzz(func(t *testing.T, data []byte) {
		contentOfBytes(data, "fuzz")
	})
}

func TestScriptArgs(t *testing.T) {
	if got := ScriptArgs(Content{Callchain: true}); got[1] != "pid,time,period,event,ip,sym,dso" {
		t.Errorf("call-stack fields = %v", got)
	}
	if got := ScriptArgs(Content{BranchStack: true}); got[1] != "pid,ip,brstack" {
		t.Errorf("LBR fields = %v", got)
	}
	if got := ScriptArgs(Content{BranchStack: true, Callchain: true}); got[1] != "pid,ip,dso,brstack" {
		t.Errorf("hybrid fields = %v", got)
	}
}

func TestParseBuildIDList(t *testing.T) {
	out := "48dc540c8b76 [kernel.kallsyms]\n12beb66bf3e7 /a b/forky\nnot an id line\n"
	got := parseBuildIDList([]byte(out))
	want := map[string]string{"[kernel.kallsyms]": "48dc540c8b76", "/a b/forky": "12beb66bf3e7"}
	if len(got) != len(want) || got["/a b/forky"] != want["/a b/forky"] || got["[kernel.kallsyms]"] != want["[kernel.kallsyms]"] {
		t.Errorf("parseBuildIDList = %v, want %v", got, want)
	}
}

func TestBuildIDsRealPerf(t *testing.T) {
	testutil.Tool(t, "perf")
	ids, err := BuildIDs(context.Background(), forkyData, Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for p, id := range ids {
		found = found || (strings.HasSuffix(p, "/forky") && len(id) == 40)
	}
	if !found {
		t.Errorf("no build id of forky in %v", ids)
	}
}
