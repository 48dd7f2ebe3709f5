package main

import (
	"bytes"
	"strings"
	"testing"
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
