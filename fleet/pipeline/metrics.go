package pipeline

import (
	"context"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// The one Beam counter: the binaries the workers opened, a measure of the
// work (it follows the number of workers), read back by Run beside the
// summary, which the stages report as data (summary.go).

const counterNamespace = "profgen-fleet"

// counterOpens counts the binaries opened (each worker opens each once).
const counterOpens = "binary opens"

// countOpens adds n to the binaries opened.
func countOpens(ctx context.Context, n int) {
	if n > 0 {
		beam.NewCounter(counterNamespace, counterOpens).Inc(ctx, int64(n))
	}
}

// progressInputs and progressBytes are this worker process's reads, for
// its progress line.
var progressInputs, progressBytes atomic.Int64

// inputReport is the summary fragment of an input read: its key and what
// its samples went to.
func inputReport(size int64, p *keyedProfile) *Summary {
	progressInputs.Add(1)
	progressBytes.Add(size)
	k := KeySummary{Key: p.key.String(), Inputs: 1, Samples: int64(p.samples.Samples), Used: int64(p.samples.Used), Dropped: map[string]int64{}}
	for why, n := range p.samples.Dropped {
		k.Dropped[why] = int64(n)
	}
	return &Summary{Inputs: 1, Bytes: size, Keys: []KeySummary{k}}
}

// emptyReport is the summary fragment of an input read that holds no
// usable sample.
func emptyReport(path string, size int64, err error) *Summary {
	progressInputs.Add(1)
	progressBytes.Add(size)
	return &Summary{Inputs: 1, Bytes: size, Empty: []string{path + ": " + err.Error()}}
}

// badReport is the summary fragment of an input left out
// (--skip-bad-inputs).
func badReport(path string, err error) *Summary {
	progressInputs.Add(1)
	return &Summary{Bad: []string{path + ": " + err.Error()}}
}
