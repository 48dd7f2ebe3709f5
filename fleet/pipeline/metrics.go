package pipeline

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// What the pipeline counts, as Beam counters: the runner sums them over
// workers and bundles, and Run reads them back for the summary. Counters
// whose names carry a key, an input or a file are made as they are met.

const counterNamespace = "profgen-fleet"

var (
	inputsRead = beam.NewCounter(counterNamespace, "inputs")
	bytesRead  = beam.NewCounter(counterNamespace, "bytes")
	badInputs  = beam.NewCounter(counterNamespace, "bad")
)

// Counters of the work done, for the tests and the summary.
const (
	counterOpens      = "binary opens" // binaries opened (each worker opens each once)
	counterSymbolized = "symbolized"   // conversions of a key's merged profile (one per key)
)

// Counter name prefixes, each followed by a key, an input or a file.
const (
	prefixSamples = "samples:" // samples of a key's recordings
	prefixUsed    = "used:"    // of them, used
	prefixDropped = "dropped:" // "dropped:<key> <reason>"
	prefixInputs  = "inputs:"  // inputs of a key
	prefixBad     = "bad:"     // "bad:<input>: <error>"
	prefixWrote   = "wrote:"   // a file written
	prefixRefused = "refused:" // "refused:<key> <format>: <why>"
)

// count adds n to the counter name.
func count(ctx context.Context, name string, n uint64) {
	if n > 0 {
		beam.NewCounter(counterNamespace, name).Inc(ctx, int64(n))
	}
}

// progressInputs and progressBytes are this worker process's reads, for
// its progress line.
var progressInputs, progressBytes atomic.Int64

// countInput counts an input read and its profile's samples.
func countInput(ctx context.Context, size int64, p *keyedProfile) {
	inputsRead.Inc(ctx, 1)
	bytesRead.Inc(ctx, size)
	progressInputs.Add(1)
	progressBytes.Add(size)
	k := p.key.String()
	count(ctx, prefixInputs+k, 1)
	count(ctx, prefixSamples+k, p.samples.Samples)
	count(ctx, prefixUsed+k, p.samples.Used)
	for why, n := range p.samples.Dropped {
		count(ctx, fmt.Sprintf("%s%s %s", prefixDropped, k, why), n)
	}
}

// countBad counts an input left out (--skip-bad-inputs).
func countBad(ctx context.Context, path string, err error) {
	badInputs.Inc(ctx, 1)
	progressInputs.Add(1)
	count(ctx, fmt.Sprintf("%s%s: %v", prefixBad, path, err), 1)
}
