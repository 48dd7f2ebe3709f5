package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/sampleprof"
)

const sampleTestdata = "../../internal/sampleprof/testdata/"

func TestClassifyMergeInputs(t *testing.T) {
	tests := []struct {
		paths   []string
		want    profileKind
		wantErr string
	}{
		{[]string{sampleTestdata + "inline.txt", sampleTestdata + "golden/inline.binary", sampleTestdata + "profgen.extbinary"}, kindSample, ""},
		{[]string{"testdata/instr.profdata"}, kindInstr, ""},
		{[]string{sampleTestdata + "inline.txt", "testdata/instr.profdata"}, kindUnknown, "cannot merge sample profiles"},
		{[]string{sampleTestdata + "inline.txt", "merge_sample.go"}, kindUnknown, "merge_sample.go: not an LLVM sample profile"},
		{[]string{"nosuch"}, kindUnknown, "nosuch"},
	}
	for _, tt := range tests {
		got, err := classifyMergeInputs(tt.paths)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("classify(%v) error = %v, want %q", tt.paths, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("classify(%v) = %v, %v; want %v", tt.paths, got, err, tt.want)
		}
	}
}

// TestMergeSampleMatchesLLVM merges profiles of all three formats with
// weights and compares with llvm-profdata-19 merge --sample, byte for byte.
func TestMergeSampleMatchesLLVM(t *testing.T) {
	llvm, err := exec.LookPath("llvm-profdata-19")
	if err != nil {
		t.Skip("llvm-profdata-19 not installed")
	}
	inputs := []sampleInput{
		{sampleTestdata + "inline.txt", 2},
		{sampleTestdata + "golden/inline.binary", 1},
		{sampleTestdata + "profgen.extbinary", 3},
		{sampleTestdata + "symlist.extbinary", 1},
	}
	args := []string{"merge", "--sample"}
	for _, in := range inputs {
		args = append(args, "--weighted-input="+strconv.FormatUint(in.weight, 10)+","+in.path)
	}
	for _, f := range []sampleprof.Format{sampleprof.FormatText, sampleprof.FormatBinary, sampleprof.FormatExtBinary} {
		dir := t.TempDir()
		ours, theirs := filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")
		if err := runMergeSample(sampleMergeOptions{output: ours, format: f}, inputs); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(llvm, append(args, "--"+f.String(), "-o", theirs)...)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, msg)
		}
		a, _ := os.ReadFile(ours)
		b, _ := os.ReadFile(theirs)
		if !bytes.Equal(a, b) {
			t.Errorf("%v: merge differs from llvm-profdata-19's", f)
		}
	}
}

func TestSampleOutputFormat(t *testing.T) {
	tests := []struct {
		text, binary, ext bool
		want              sampleprof.Format
	}{
		{false, false, false, sampleprof.FormatExtBinary},
		{true, false, false, sampleprof.FormatText},
		{false, true, false, sampleprof.FormatBinary},
		{false, false, true, sampleprof.FormatExtBinary},
		{true, true, false, sampleprof.FormatUnknown},
	}
	for _, tt := range tests {
		got, err := sampleOutputFormat(tt.text, tt.binary, tt.ext)
		if got != tt.want || (err != nil) != (tt.want == sampleprof.FormatUnknown) {
			t.Errorf("sampleOutputFormat(%v, %v, %v) = %v, %v", tt.text, tt.binary, tt.ext, got, err)
		}
	}
}

// TestMergeCommandSampleInputs drives `profgen merge` with sample profiles:
// the command sends them to the sample merge, weights and formats included.
func TestMergeCommandSampleInputs(t *testing.T) {
	needTool(t, "llvm-profdata-19")
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("main:100:5\n 1: 50 foo:10\n 2: 50\n"), 0o644)
	os.WriteFile(b, []byte("main:20:1\n 1: 20\nfoo:30:3\n 1: 30\n"), 0o644)
	for _, format := range []string{"--text", "--binary", "--extbinary"} {
		got := filepath.Join(dir, "got"+format)
		want := filepath.Join(dir, "want"+format)
		o := mergeOptions{output: got, failureMode: "any"}
		o.text, o.extbinary = format == "--text", format == "--extbinary"
		if format == "--binary" {
			o.binary = binaryFormatOnly
		}
		o.weighted = []string{"2," + b}
		if err := runMerge(io.Discard, &o, []string{a}); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("llvm-profdata-19", "merge", "--sample", format, "-o", want, a, "--weighted-input=2,"+b).CombinedOutput()
		if err != nil {
			t.Fatalf("llvm-profdata-19: %v\n%s", err, out)
		}
		g, _ := os.ReadFile(got)
		w, _ := os.ReadFile(want)
		if !bytes.Equal(g, w) {
			t.Errorf("%s: profgen merge differs from llvm-profdata-19 merge --sample", format)
		}
	}
}
