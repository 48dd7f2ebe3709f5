package main

import (
	"flag"
	"io"
	"slices"
	"testing"

	"github.com/profgen/profgen/fleet/pipeline"
)

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		formats []string
		inputs  []string
	}{
		{[]string{"--format", "text,extbinary", "--format=pprof"}, []string{"text", "extbinary", "pprof"}, nil},
		{[]string{"--input", "a/*.data", "--input", "b,c.data"}, nil, []string{"a/*.data", "b,c.data"}},
		{[]string{"--format", " text , ,gcc"}, []string{"text", "gcc"}, nil},
	} {
		var o pipeline.Options
		fs := flag.NewFlagSet("profgen-fleet", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		addFlags(fs, &o)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(o.Formats, tc.formats) || !slices.Equal(o.Inputs, tc.inputs) {
			t.Errorf("%q: formats %q, inputs %q; want %q, %q", tc.args, o.Formats, o.Inputs, tc.formats, tc.inputs)
		}
	}
}
