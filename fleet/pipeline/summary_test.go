package pipeline

import (
	"bytes"
	"strings"
	"testing"
)

// TestSummaryFromReports: the stages' fragments combine into one summary,
// the same bytes in any order and grouping, and print a line per fact.
func TestSummaryFromReports(t *testing.T) {
	fragments := []*Summary{
		{Inputs: 1, Bytes: 100, Keys: []KeySummary{{Key: "lbr/ab", Inputs: 1, Samples: 6, Used: 5, Dropped: map[string]int64{"no mapping": 1}}}},
		{Inputs: 1, Bytes: 200, Keys: []KeySummary{{Key: "lbr/ab", Inputs: 1, Samples: 4, Used: 3, Dropped: map[string]int64{"no mapping": 1}}}},
		{Bad: []string{"x.data: truncated"}},
		{Inputs: 1, Bytes: 50, Empty: []string{"y.otlp: no samples"}},
		{Written: []string{"lbr/ab.text"}, Refused: []string{"lbr/ab pprof: needs call stacks"}, Symbolized: 1},
	}
	var encodings []string
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}, {2, 0, 4, 3, 1}} {
		var fn summaryFn
		a, b := fn.CreateAccumulator(), fn.CreateAccumulator()
		for i, j := range order {
			acc := a
			if i%2 == 1 {
				acc = b
			}
			if _, err := fn.AddInput(acc, fragments[j].encode()); err != nil {
				t.Fatal(err)
			}
		}
		encodings = append(encodings, fn.ExtractOutput(fn.MergeAccumulators(a, b)))
	}
	for _, e := range encodings[1:] {
		if e != encodings[0] {
			t.Fatalf("summaries differ by order:\n%s\n%s", encodings[0], e)
		}
	}
	s, err := decodeSummary([]byte(encodings[0]))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s.Print(&out)
	for _, want := range []string{
		"profgen-fleet: 3 inputs read (350 bytes), 1 bad, 1 without a usable sample\n",
		"profgen-fleet: no usable sample in y.otlp: no samples\n",
		"profgen-fleet: skipped bad input x.data: truncated\n",
		"profgen-fleet: lbr/ab: 2 inputs, 10 samples, 8 used; dropped: 2 no mapping\n",
		"profgen-fleet: not written: lbr/ab pprof: needs call stacks\n",
		"profgen-fleet: wrote 1 files",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}
