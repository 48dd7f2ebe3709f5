package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

func TestShowCommand(t *testing.T) {
	tests := []struct {
		args []string
		want string // substring of the output or error
	}{
		{[]string{"show", "../../internal/sampleprof/testdata/golden/inline.extbinary"}, "Format: extbinary"},
		{[]string{"show", "--json", "../../internal/sampleprof/testdata/golden/inline.binary"}, `"format": "binary"`},
		{[]string{"show", "--function", "main", "../../internal/sampleprof/testdata/inline.txt"}, "3: inlined inl, total 300"},
		{[]string{"show", "--function", "nosuch", "../../internal/sampleprof/testdata/inline.txt"}, `no function "nosuch"`},
		{[]string{"show", "cmd_show.go"}, "cmd_show.go:1: expected"},
		{[]string{"show", "testdata/instr.profdata"}, "an instrumentation profile"},
	}
	for _, tt := range tests {
		cmd := newRootCommand()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetArgs(tt.args)
		err := cmd.Execute()
		got := out.String()
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("profgen %v = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestShowPprof(t *testing.T) {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Function:   []*profile.Function{{ID: 1, Name: "_Z3fooi"}},
	}
	p.Location = []*profile.Location{{ID: 1, Line: []profile.Line{{Function: p.Function[0], Line: 3}}}}
	p.Sample = []*profile.Sample{{Location: p.Location, Value: []int64{7}}}
	path := filepath.Join(t.TempDir(), "cpu.pb.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var out bytes.Buffer
	if err := runShow(&out, showOptions{top: 5}, path); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "foo(int) [_Z3fooi]") || !strings.Contains(out.String(), "Format: pprof") {
		t.Errorf("show of pprof:\n%s", out.String())
	}
	out.Reset()
	if err := runShow(&out, showOptions{function: "foo(int)"}, path); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "flat 7, cum 7") {
		t.Errorf("show --function of pprof:\n%s", out.String())
	}
}
