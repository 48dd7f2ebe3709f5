package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/profgen/profgen/internal/profshow"
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
		{[]string{"show", "testdata/instr.profdata"}, "Total functions: 2\n"},
		{[]string{"show", "--function", "bar", "--counts", "testdata/instr.profdata"}, "Function count: 1000\n    Block counts: []\n"},
		{[]string{"show", "--top", "1", "testdata/instr.profdata"}, "Hottest functions"},
		{[]string{"show", "../../internal/instrprof/testdata/cs.profraw"}, "Instrumentation level: IR"},
		{[]string{"show", "--top", "1", "../../internal/instrprof/testdata/cs.profraw"}, "merge it first"},
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
	if err := profshow.Run(&out, profshow.Options{Top: 5}, path); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "foo(int) [_Z3fooi]") || !strings.Contains(out.String(), "Format: pprof") {
		t.Errorf("show of pprof:\n%s", out.String())
	}
	out.Reset()
	if err := profshow.Run(&out, profshow.Options{Function: "foo(int)"}, path); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "flat 7, cum 7") {
		t.Errorf("show --function of pprof:\n%s", out.String())
	}
}

// TestShowIndexedMatchesLLVM: show on an indexed .profdata prints the
// totals llvm-profdata-22 show prints, and one function's counters.
func TestShowIndexedMatchesLLVM(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	dir := t.TempDir()
	prof := filepath.Join(dir, "t.profdata")
	raws := []string{"../../internal/instrprof/testdata/ir19-1.profraw", "../../internal/instrprof/testdata/ir19-2.profraw"}
	if out, err := exec.Command("llvm-profdata-22", append([]string{"merge", "-o", prof}, raws...)...).CombinedOutput(); err != nil {
		t.Fatalf("llvm-profdata-22 merge: %v\n%s", err, out)
	}
	llvm, err := exec.Command("llvm-profdata-22", "show", "--function=main", "--counts", prof).Output()
	if err != nil {
		t.Fatal(err)
	}
	var summary, function bytes.Buffer
	if err := profshow.Run(&summary, profshow.Options{Top: 3}, prof); err != nil {
		t.Fatal(err)
	}
	if err := profshow.Run(&function, profshow.Options{Function: "main", LLVM: profshow.LLVMOptions{Counts: true}}, prof); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"Total functions: ", "Maximum function count: ", "Maximum internal block count: "} {
		want := lineWith(string(llvm), line)
		if want == "" || !strings.Contains(summary.String(), want+"\n") {
			t.Errorf("summary lacks llvm-profdata's %q:\n%s", want, summary.String())
		}
	}
	for _, line := range []string{"Hash: ", "Block counts: "} {
		want := lineWith(string(llvm), line)
		if want == "" || !strings.Contains(function.String(), want+"\n") {
			t.Errorf("--function main lacks llvm-profdata's %q:\n%s", want, function.String())
		}
	}
}

// lineWith returns the first line of s holding sub, trimmed.
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// TestShowStdin: "-" is standard input, as for llvm-profdata show.
func TestShowStdin(t *testing.T) {
	want, _, err := runInProcess([]string{"show", "--sample", "testdata/parity/a.sample.txt"})
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.ReadFile("testdata/parity/a.sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd := newRootCommand()
	cmd.SetArgs([]string{"show", "--sample", "-"})
	cmd.SetIn(bytes.NewReader(in))
	cmd.SetOut(&out)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("show - printed\n%s\nwant\n%s", out.String(), want)
	}
}
