package sampleprof

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMergeSaturates(t *testing.T) {
	a, _ := ReadText(strings.NewReader("f:18446744073709551615:1\n 1: 18446744073709551615 g:18446744073709551615\n"))
	b, _ := ReadText(strings.NewReader("f:5:1\n 1: 5 g:5\n"))
	dst := NewProfile()
	for _, p := range []*Profile{a, b} {
		var over *CounterOverflowError
		if err := Merge(dst, p, 3); !errors.As(err, &over) || over.Functions[0] != "f" {
			t.Fatalf("Merge = %v, want a counter overflow of f", err)
		}
	}
	f := dst.Functions["f"]
	r := f.Body[LineLocation{1, 0}]
	if f.TotalSamples != math.MaxUint64 || r.Samples != math.MaxUint64 || r.CallTargets["g"] != math.MaxUint64 {
		t.Errorf("no saturation: %+v %+v", f, r)
	}
	if f.HeadSamples != 6 {
		t.Errorf("head = %d, want 6", f.HeadSamples)
	}
}

func TestMergeRefusesMixedNames(t *testing.T) {
	dst := NewProfile()
	Merge(dst, &Profile{Functions: map[string]*FunctionSamples{"f": NewFunctionSamples("f")}}, 1)
	if err := Merge(dst, &Profile{Functions: map[string]*FunctionSamples{}, MD5: true}, 1); err == nil {
		t.Error("merged MD5 and plain names")
	}
}

// TestMergeMatchesLLVM merges the test profiles with weights and compares
// with llvm-profdata-19 merge --sample of the same inputs.
func TestMergeMatchesLLVM(t *testing.T) {
	llvmProfdata(t)
	inputs := textInputs(t)
	var args []string
	dst := NewProfile()
	for i, in := range inputs {
		if p := readTestFile(t, in); p.ProbeBased || p.PreInlined {
			// Probe profiles cannot be merged with line-based ones; the
			// pre-inlined flag of llvm-profdata's output depends on the
			// order of its inputs (profgen keeps it if any input has it).
			continue
		}
		w := uint64(i + 1)
		args = append(args, fmt.Sprintf("--weighted-input=%d,%s", w, in))
		if err := Merge(dst, readTestFile(t, in), w); err != nil {
			t.Fatal(err)
		}
	}
	// The extbinary inputs too, and a second copy of the first profile.
	for _, in := range []string{"testdata/symlist.extbinary", "testdata/golden/inline.binary"} {
		args = append(args, in)
		if err := Merge(dst, readTestFile(t, in), 1); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []Format{FormatText, FormatExtBinary} {
		want := llvmMerge(t, append([]string{"--" + f.String()}, args...)...)
		if got := encode(t, dst, f, WriteOptions{}); !bytes.Equal(got, want) {
			t.Errorf("%v merge differs from llvm-profdata-19's", f)
		}
	}
}

func TestMergeKeepsFSDiscriminators(t *testing.T) {
	dst := NewProfile()
	Merge(dst, &Profile{Functions: map[string]*FunctionSamples{}, FSDiscriminators: true}, 1)
	Merge(dst, NewProfile(), 1)
	if !dst.FSDiscriminators {
		t.Error("merge lost the flow-sensitive discriminator flag")
	}
}

// TestMergeProbesMatchesLLVM merges pseudo-probe profiles, one with a
// changed checksum, and compares with llvm-profdata-19, which drops the
// samples of the mismatching function.
func TestMergeProbesMatchesLLVM(t *testing.T) {
	llvmProfdata(t)
	orig, err := os.ReadFile("testdata/profgen-probe.prof.txt")
	if err != nil {
		t.Fatal(err)
	}
	changed := filepath.Join(t.TempDir(), "changed.txt")
	if err := os.WriteFile(changed, bytes.Replace(orig, []byte("!CFGChecksum: 4294967295"), []byte("!CFGChecksum: 7"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := NewProfile()
	if err := Merge(dst, readTestFile(t, "testdata/profgen-probe.prof.txt"), 2); err != nil {
		t.Fatal(err)
	}
	err = Merge(dst, readTestFile(t, changed), 1)
	var mm *ChecksumMismatchError
	if !errors.As(err, &mm) || len(mm.Functions) != 1 || mm.Functions[0] != "bar" {
		t.Errorf("Merge error = %v, want a checksum mismatch of bar", err)
	}
	// Weighted inputs keep their order (llvm-profdata reads plain ones first).
	want := llvmMerge(t, "--text", "--weighted-input=2,testdata/profgen-probe.prof.txt", "--weighted-input=1,"+changed)
	if got := encode(t, dst, FormatText, WriteOptions{}); !bytes.Equal(got, want) {
		t.Errorf("merge:\n%s\nllvm-profdata-19:\n%s", got, want)
	}
	if err := Merge(dst, readTestFile(t, "testdata/inline.txt"), 1); err == nil {
		t.Error("merged a line-based profile into a probe-based one")
	}
}

// TestMergePreInlinedMatchesLLVM merges llvm-profgen's pre-inlined
// profile (context attributes) with itself, in text and extbinary.
func TestMergePreInlinedMatchesLLVM(t *testing.T) {
	llvmProfdata(t)
	const in = "testdata/profgen-preinlined.prof.txt"
	dst := NewProfile()
	for _, w := range []uint64{3, 1} {
		if err := Merge(dst, readTestFile(t, in), w); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []Format{FormatText, FormatExtBinary} {
		want := llvmMerge(t, "--"+f.String(), "--weighted-input=3,"+in, in)
		if got := encode(t, dst, f, WriteOptions{}); !bytes.Equal(got, want) {
			t.Errorf("%v merge differs from llvm-profdata-19's", f)
		}
	}
}
