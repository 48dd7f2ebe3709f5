package pipeline

import (
	"bytes"
	"strings"
	"testing"
)

func TestSummaryFromCounters(t *testing.T) {
	s := summarizeCounts(map[string]int64{
		"inputs": 3, "bytes": 300,
		"inputs:lbr/ab": 2, "samples:lbr/ab": 10, "used:lbr/ab": 8, "dropped:lbr/ab no mapping": 2,
		"bad:x.data: truncated": 1, "wrote:out/ab.text": 1,
	})
	var out bytes.Buffer
	s.Print(&out)
	for _, want := range []string{
		"profgen-fleet: 3 inputs read (300 bytes), 1 bad\n",
		"profgen-fleet: skipped bad input x.data: truncated\n",
		"profgen-fleet: lbr/ab: 2 inputs, 10 samples, 8 used; dropped: 2 no mapping\n",
		"profgen-fleet: wrote 1 files\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
}
