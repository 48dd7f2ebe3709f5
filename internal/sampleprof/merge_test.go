package sampleprof

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestMergeSaturates(t *testing.T) {
	a, _ := ReadText(strings.NewReader("f:18446744073709551615:1\n 1: 18446744073709551615 g:18446744073709551615\n"))
	b, _ := ReadText(strings.NewReader("f:5:1\n 1: 5 g:5\n"))
	dst := NewProfile()
	for _, p := range []*Profile{a, b} {
		if err := Merge(dst, p, 3); err != nil {
			t.Fatal(err)
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
