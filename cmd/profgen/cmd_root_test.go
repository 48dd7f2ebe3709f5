package main

import (
	"slices"
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

func TestRootValidate(t *testing.T) {
	tests := []struct {
		o    rootOptions
		want string
	}{
		{rootOptions{perfScript: "a", output: "o"}, "--binary is required"},
		{rootOptions{perfScript: "a", binaries: []string{"b"}}, "--output is required"},
		{rootOptions{binaries: []string{"b"}, output: "o"}, "give exactly one of --perfscript, --perfdata and --unsymbolized-profile"},
		{rootOptions{perfScript: "a", unsymbolizedProfile: "u", binaries: []string{"b"}, output: "o"}, "give exactly one of --perfscript, --perfdata and --unsymbolized-profile"},
	}
	for _, tt := range tests {
		if err := tt.o.validate(); err == nil || err.Error() != tt.want {
			t.Errorf("%+v: %v, want %q", tt.o, err, tt.want)
		}
	}
}
