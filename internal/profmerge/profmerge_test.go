package profmerge

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/profgen/profgen/internal/profformat"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/testutil"
)

const sampleTestdata = "../sampleprof/testdata/"

func TestClassifyMergeInputs(t *testing.T) {
	tests := []struct {
		paths   []string
		want    profformat.Kind
		wantErr string
	}{
		{[]string{sampleTestdata + "inline.txt", sampleTestdata + "golden/inline.binary", sampleTestdata + "profgen.extbinary"}, profformat.KindSample, ""},
		{[]string{"../../cmd/profgen/testdata/instr.profdata"}, profformat.KindInstr, ""},
		{[]string{sampleTestdata + "inline.txt", "../../cmd/profgen/testdata/instr.profdata"}, profformat.KindUnknown, "cannot merge sample profiles"},
		{[]string{sampleTestdata + "inline.txt", "inputs.go"}, profformat.KindUnknown, "inputs.go: not an LLVM sample profile"},
		{[]string{"nosuch"}, profformat.KindUnknown, "nosuch"},
		{[]string{"../addrprof/testdata/merged.addr", "../rawprof/testdata/llvm19-t.raw"}, profformat.KindAddress, ""},
		{[]string{"../addrprof/testdata/merged.addr", sampleTestdata + "inline.txt"}, profformat.KindUnknown, "cannot merge address profiles"},
	}
	for _, tt := range tests {
		got, err := Classify(tt.paths)
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
	llvm := testutil.Tool(t, "llvm-profdata-19")
	inputs := []sampleprof.WeightedFile{
		{Path: sampleTestdata + "inline.txt", Weight: 2},
		{Path: sampleTestdata + "golden/inline.binary", Weight: 1},
		{Path: sampleTestdata + "profgen.extbinary", Weight: 3},
		{Path: sampleTestdata + "symlist.extbinary", Weight: 1},
	}
	args := []string{"merge", "--sample"}
	for _, in := range inputs {
		args = append(args, "--weighted-input="+strconv.FormatUint(in.Weight, 10)+","+in.Path)
	}
	for _, f := range []sampleprof.Format{sampleprof.FormatText, sampleprof.FormatBinary, sampleprof.FormatExtBinary} {
		dir := t.TempDir()
		ours, theirs := filepath.Join(dir, "ours"), filepath.Join(dir, "theirs")
		p, err := sampleprof.MergeFiles(inputs, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteSample(ours, p, f, sampleprof.WriteOptions{}); err != nil {
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
		flag string
		want sampleprof.Format
	}{
		{"", sampleprof.FormatExtBinary},
		{"text", sampleprof.FormatText},
		{"binary", sampleprof.FormatBinary},
		{"extbinary", sampleprof.FormatExtBinary},
		{"gcc", sampleprof.FormatGCC},
		{"yaml", sampleprof.FormatUnknown},
	}
	for _, tt := range tests {
		got, err := SampleOutputFormat(tt.flag)
		if got != tt.want || (err != nil) != (tt.want == sampleprof.FormatUnknown) {
			t.Errorf("SampleOutputFormat(%q) = %v, %v", tt.flag, got, err)
		}
	}
}

// TestMergeCommandSampleInputs drives `profgen merge` with sample profiles:
// the command sends them to the sample merge, weights and formats included.
func TestMergeCommandSampleInputs(t *testing.T) {
	testutil.Tool(t, "llvm-profdata-19")
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("main:100:5\n 1: 50 foo:10\n 2: 50\n"), 0o644)
	os.WriteFile(b, []byte("main:20:1\n 1: 20\nfoo:30:3\n 1: 30\n"), 0o644)
	for _, format := range []string{"--text", "--binary", "--extbinary"} {
		got := filepath.Join(dir, "got"+format)
		want := filepath.Join(dir, "want"+format)
		o := Options{Output: got, FailureMode: "any", Format: format[2:]}
		o.Args, o.Weighted = []string{a}, []string{"2," + b}
		if err := Run(io.Discard, &o); err != nil {
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

// TestMergeGCC: `profgen merge --gcc` adds GCC AutoFDO and LLVM inputs
// into a GCC profile (versions 2 and 3, discriminators folded or not), and
// GCC → --text → --gcc gives back the same bytes.
func TestMergeGCC(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, gcc bool) string {
		path := filepath.Join(dir, name)
		p, err := sampleprof.ReadText(strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		format := sampleprof.FormatText
		if gcc {
			format = sampleprof.FormatGCC
		}
		if err := sampleprof.Write(&b, p, format); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(path, b.Bytes(), 0o644)
		return path
	}
	a := write("a.afdo", "main:100:5\n 1: 50 foo:10\n 2.1: 50\n", true)
	b := write("b.txt", "main:20:1\n 1: 20\nfoo.cold:30:3\n 1: 30\n", false)
	merge := func(out, format string, gcc sampleprof.GCCOptions, inputs ...string) string {
		o := Options{Output: filepath.Join(dir, out), FailureMode: "any", Kind: "sample", Format: format, GCC: gcc}
		o.Args = inputs
		if err := Run(io.Discard, &o); err != nil {
			t.Fatal(err)
		}
		return o.Output
	}
	tests := []struct {
		out  string
		gcc  sampleprof.GCCOptions
		want string
	}{
		{"v2.afdo", sampleprof.GCCOptions{}, "main:120:6\n 1: 70 foo:10\n 2.1: 50\nfoo:30:3\n 1: 30\n"},
		{"v3.afdo", sampleprof.GCCOptions{Version: 3}, "main:120:6\n 1: 70 foo:10\n 2.1: 50\nfoo:30:3\n 1: 30\n"},
		{"folded.afdo", sampleprof.GCCOptions{FoldDiscriminators: true}, "main:120:6\n 1: 70 foo:10\n 2: 50\nfoo:30:3\n 1: 30\n"},
	}
	for _, tt := range tests {
		got := merge(tt.out, FormatGCC, tt.gcc, a, b)
		text := merge(tt.out+".txt", FormatText, sampleprof.GCCOptions{}, got)
		if data, _ := os.ReadFile(text); string(data) != tt.want {
			t.Errorf("%s reads as\n%s\nwant\n%s", tt.out, data, tt.want)
		}
		again := merge(tt.out+".again", FormatGCC, sampleprof.GCCOptions{Version: tt.gcc.Version}, text)
		g, _ := os.ReadFile(got)
		w, _ := os.ReadFile(again)
		if !bytes.Equal(g, w) {
			t.Errorf("%s: GCC → text → GCC changed the bytes", tt.out)
		}
	}
}

// TestMergeEmptyMemProfYAML: a MemProf YAML profile without records is
// skipped as llvm-profdata-22 skips it ("The profile is empty"): alone, no
// profile can be merged and nothing is written (memprof-yaml-invalid.test).
func TestMergeEmptyMemProfYAML(t *testing.T) {
	dir := t.TempDir()
	for i, yaml := range []string{"---\n...\n", "---\nHeapProfileRecords: []\n...\n"} {
		in := filepath.Join(dir, fmt.Sprintf("empty%d.yaml", i))
		os.WriteFile(in, []byte(yaml), 0o644)
		out := filepath.Join(dir, "out.profdata")
		o := Options{Output: out, FailureMode: "any"}
		o.Args = []string{in}
		var stderr bytes.Buffer
		err := Run(&stderr, &o)
		if err == nil || !strings.Contains(stderr.String(), "MemProf profile is empty") {
			t.Errorf("%q: err %v, stderr %q", yaml, err, stderr.String())
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: an output was written", yaml)
		}
	}
}
