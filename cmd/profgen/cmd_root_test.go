package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestLLVMStyleArgs(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"-perfscript=a", "-binary", "b", "-skip-symbolization", "-o", "-"}, []string{"--perfscript=a", "--binary", "b", "--skip-symbolization", "-o", "-"}},
		{[]string{"--ps", "a", "-oout.raw", "-output=x"}, []string{"--ps", "a", "-oout.raw", "--output=x"}},
		{[]string{"--pid", "-1", "-h"}, []string{"--pid", "-1", "-h"}},
	}
	for _, tt := range tests {
		if got := llvmStyleArgs(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("llvmStyleArgs(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRootFlags(t *testing.T) {
	cmd := newRootCommand()
	if err := cmd.ParseFlags([]string{"--ps", "in.script", "--binary", "b", "-o", "out", "--pid", "1,2", "--pid=3", "--skip-symbolization"}); err != nil {
		t.Fatal(err)
	}
	fs := cmd.Flags()
	pids, _ := fs.GetInt32Slice("pid")
	ps, _ := fs.GetString("perfscript")
	format, _ := fs.GetString("format")
	if !slices.Equal(pids, []int32{1, 2, 3}) || ps != "in.script" || format != "extbinary" {
		t.Errorf("pids %v, perfscript %q, format %q", pids, ps, format)
	}
}

// TestUsageErrors: a request that cannot work is refused before any input
// is read, with exit code 2 and one line.
func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--unsymbolized-profile", "a", "-o", "o"}, "--binary is required"},
		{[]string{"--perfscript", "-", "-o", "o"}, "--binary is required with standard input"},
		{[]string{"--perfscript", "a", "--debug-binary", "d", "-o", "o"}, "--debug-binary applies to a --binary"},
		{[]string{"--perfscript", "a", "--binary", "b", "--binary-dir", "d", "-o", "o"}, "--binary-dir is where binaries are found without --binary"},
		{[]string{"--perfscript", "a", "--binary", "b"}, "--output is required"},
		{[]string{"--binary", "b", "-o", "o"}, "give exactly one of --perfscript, --perfdata, --profile, --unsymbolized-profile and --llvm-sample-profile"},
		{[]string{"--perfscript", "a", "--unsymbolized-profile", "u", "--binary", "b", "-o", "o"}, "give exactly one of"},
		{[]string{"--perfdata", "a", "--profile", "p", "--binary", "b", "-o", "o"}, "give exactly one of"},
		{[]string{"--perfdata", "a", "--sample-type", "cpu", "--binary", "b", "-o", "o"}, "--sample-type applies to --profile"},
		{[]string{"--profile", "p", "--pid", "3", "--binary", "b", "-o", "o"}, "--profile's samples carry no process"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--format", "yaml"}, "--format"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--format", "pprof", "--skip-symbolization"}, "--skip-symbolization"},
		{[]string{"--perfscript", "a", "--binary", "b", "--binary", "c", "--debug-binary", "d", "-o", dir}, "--debug-binary applies to one --binary"},
		{[]string{"--perfscript", "a", "--binary", "b", "--binary", "c", "-o", dir + "/one.prof"}, "need one output each"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", dir + "/missing/o.prof"}, "output " + dir + "/missing/o.prof"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--no-such-flag"}, "unknown flag"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--format", "pprof", "--fold-kernel", "--no-fold-kernel"}, "contradict"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--format", "yaml"}, "(or pprof, gcc, bolt, bolt-preagg, propeller)"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--format", "bolt", "--skip-symbolization"}, "--format=bolt writes BOLT's profile of whole branch stacks"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--format", "bolt-preagg", "--leading-ip-only"}, "--leading-ip-only do not apply"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--also", "bolt"}, "want FORMAT=PATH"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--also", "yaml=x"}, "--format"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--also", "bolt=o"}, "two outputs would write o"},
		{[]string{"--perfscript", "a", "--binary", "b", "-o", "o", "--also", "bolt=x", "--leading-ip-only"}, "--leading-ip-only do not apply"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		cmd := newRootCommand()
		cmd.SetArgs(tt.args)
		code := report(cmd.Execute(), &stderr)
		msg := stderr.String()
		if code != exitUsage || !strings.Contains(msg, tt.want) || strings.Count(msg, "\n") != 1 {
			t.Errorf("%q: exit %d, %q; want exit %d and %q", tt.args, code, msg, exitUsage, tt.want)
		}
	}
}

// TestVersionNamesLLVM22: --version names a build and the LLVM release
// profgen is a drop-in for.
func TestVersionNamesLLVM22(t *testing.T) {
	out, _, err := runInProcess([]string{"--version"})
	if err != nil || !strings.HasPrefix(out, "profgen ") || !strings.Contains(out, "LLVM 22") {
		t.Errorf("--version = %q, %v", out, err)
	}
}
