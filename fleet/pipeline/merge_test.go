package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// mergeTestInputs are small profiles of each kind the merge takes, from
// the main module's test data.
var mergeTestInputs = []struct {
	name  string
	files []string
}{
	{"lbr", []string{"internal/rawprof/testdata/llvm19-t.raw", "internal/driver/testdata/t.llvm19.raw", "internal/rawprof/testdata/llvm19-t.raw"}},
	{"stacks", []string{"internal/addrprof/testdata/merged.addr", "internal/addrprof/testdata/merged.addr"}},
	{"raws", []string{"internal/instrprof/testdata/ir19-1.profraw", "internal/instrprof/testdata/ir19-2.profraw", "internal/instrprof/testdata/ir19-1.profraw"}},
}

// TestMergeGroupingAndOrder checks that the merge gives the same bytes
// whatever the runner does: inputs added one by one, in reverse order, in
// two accumulators merged, and through the accumulator's coder.
func TestMergeGroupingAndOrder(t *testing.T) {
	for _, tc := range mergeTestInputs {
		t.Run(tc.name, func(t *testing.T) {
			ins := readAll(t, tc.files)
			want, err := mergeProfiles(ins)
			if err != nil {
				t.Fatal(err)
			}
			reversed := slices.Clone(ins)
			slices.Reverse(reversed)
			for name, got := range map[string][]byte{
				"in order": extract(t, addAll(t, accumulator{}, ins)),
				"reversed": extract(t, addAll(t, accumulator{}, reversed)),
				"split":    extract(t, mergeAccs(t, addAll(t, accumulator{}, ins[1:]), addAll(t, accumulator{}, ins[:1]))),
				"coded":    extract(t, mergeAccs(t, recode(t, addAll(t, accumulator{}, ins[:1])), recode(t, addAll(t, accumulator{}, ins[1:])))),
			} {
				if !bytes.Equal(got, want) {
					t.Errorf("%s: %d bytes differ from the merge of all (%d bytes)", name, len(got), len(want))
				}
			}
		})
	}
}

func readAll(t *testing.T, files []string) [][]byte {
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

func addAll(t *testing.T, a accumulator, ins [][]byte) accumulator {
	for _, in := range ins {
		var err error
		if a, err = (mergeFn{}).AddInput(a, in); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func mergeAccs(t *testing.T, a, b accumulator) accumulator {
	a, err := (mergeFn{}).MergeAccumulators(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func recode(t *testing.T, a accumulator) accumulator {
	data, err := encodeAccumulator(a)
	if err != nil {
		t.Fatal(err)
	}
	a, err = decodeAccumulator(data)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func extract(t *testing.T, a accumulator) []byte {
	out, err := (mergeFn{}).ExtractOutput(a)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
