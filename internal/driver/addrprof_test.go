package driver

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddressProfileRoundTrip: call-stack input written as an address
// profile (--skip-symbolization) and read back (--unsymbolized-profile)
// gives the one-pass conversion's bytes, for perf script layouts with and
// without times, native perf.data, and two binaries.
func TestAddressProfileRoundTrip(t *testing.T) {
	libc := "/usr/lib/x86_64-linux-gnu/libc.so.6"
	for _, tc := range []struct {
		name     string
		in       Options
		binaries []string
		formats  []string
	}{
		{"script with times", Options{PerfScript: callstackDir + "forky.default-tasks.script"}, nil, []string{"pprof", "text", "extbinary"}},
		{"script without times", Options{PerfScript: callstackDir + "forky.pid-ip-sym-dso-tasks.script"}, nil, []string{"pprof", "text"}},
		{"perf.data", Options{PerfData: callstackDir + "forky.perf.data"}, nil, []string{"pprof", "text"}},
		{"two binaries", Options{PerfScript: callstackDir + "forky.default-tasks.script"}, []string{callstackDir + "forky", libc}, []string{"pprof"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, b := range tc.binaries {
				if _, err := os.Stat(b); err != nil {
					t.Skip(err)
				}
			}
			skip := tc.in
			skip.Binaries, skip.SkipSymbolization = tc.binaries, true
			addr := stackProfile(t, skip)
			if !bytes.HasPrefix(addr, []byte("# profgen address profile v1\n")) {
				t.Fatalf("no address profile header:\n%.200s", addr)
			}
			path := filepath.Join(t.TempDir(), "a.addr")
			if err := os.WriteFile(path, addr, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, format := range tc.formats {
				one := tc.in
				one.Binaries, one.Format = tc.binaries, format
				want := stackProfile(t, one)
				got := stackProfile(t, Options{UnsymbolizedProfile: path, Binaries: tc.binaries, Format: format})
				if !bytes.Equal(got, want) {
					t.Errorf("%s: the address profile converts to other bytes than the recording", format)
				}
			}
		})
	}
}

// TestAddressProfileErrors: what cannot be converted says why in one line.
func TestAddressProfileErrors(t *testing.T) {
	addr := stackProfile(t, Options{PerfScript: callstackDir + "forky.default-tasks.script", SkipSymbolization: true})
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	otherID := bytes.Replace(addr, []byte("binary 12beb66b"), []byte("binary 00000000"), 1)
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"another build", Options{UnsymbolizedProfile: write("other.addr", otherID)}, "which no --binary is"},
		{"malformed", Options{UnsymbolizedProfile: write("bad.addr", append(addr, "stack 1\n"...))}, "bad.addr:97:"},
		{"LBR to pprof", Options{UnsymbolizedProfile: write("lbr.raw", []byte("0\n0\n")), Format: "pprof"}, "--format=pprof needs call stacks"},
		{"LBR of two binaries", Options{UnsymbolizedProfile: write("lbr2.raw", []byte("0\n0\n")), Binaries: []string{callstackDir + "forky", callstackDir + "forky"},
			Output: filepath.Join(dir, "%b.prof")}, "of one --binary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			if len(opts.Binaries) == 0 {
				opts.Binaries = []string{callstackDir + "forky"}
			}
			if opts.Output == "" {
				opts.Output = filepath.Join(t.TempDir(), "out")
			}
			opts.Quiet = true
			err := Run(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line with %q", err, tc.want)
			}
		})
	}
}
