package pipeline

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
)

// Summary is what the pipeline did, from its counters.
type Summary struct {
	Inputs, Bytes int64
	Bad           []string // the inputs left out and why (--skip-bad-inputs), sorted
	Keys          []KeySummary
	Written       []string // the files written, sorted
	Refused       []string // formats not written for a key, and why
	// Opens are the binaries the workers opened: each worker opens each
	// binary once, whatever the number of inputs and keys it handles.
	Opens int64
	// Symbolized are the conversions of merged address profiles: one per
	// key, for all its formats.
	Symbolized int64
}

// KeySummary is what went into one key's profile: its kind and build ids.
type KeySummary struct {
	Key                   string
	Inputs, Samples, Used int64
	Dropped               map[string]int64 // by reason
}

// summarize reads the pipeline's counters.
func summarize(counters []metrics.CounterResult) *Summary {
	values := map[string]int64{}
	for _, c := range counters {
		if c.Namespace() == counterNamespace {
			values[c.Name()] += c.Result()
		}
	}
	return summarizeCounts(values)
}

// summarizeCounts makes the summary of the counters' values by name.
func summarizeCounts(values map[string]int64) *Summary {
	s := &Summary{}
	keys := map[string]*KeySummary{}
	keyOf := func(k string) *KeySummary {
		if keys[k] == nil {
			keys[k] = &KeySummary{Key: k, Dropped: map[string]int64{}}
		}
		return keys[k]
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		s.add(name, values[name], keyOf)
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		s.Keys = append(s.Keys, *keys[k])
	}
	return s
}

// add adds the counter name's value n.
func (s *Summary) add(name string, n int64, keyOf func(string) *KeySummary) {
	switch {
	case name == "inputs":
		s.Inputs += n
	case name == "bytes":
		s.Bytes += n
	case name == counterOpens:
		s.Opens += n
	case name == counterSymbolized:
		s.Symbolized += n
	case strings.HasPrefix(name, prefixInputs):
		keyOf(strings.TrimPrefix(name, prefixInputs)).Inputs += n
	case strings.HasPrefix(name, prefixSamples):
		keyOf(strings.TrimPrefix(name, prefixSamples)).Samples += n
	case strings.HasPrefix(name, prefixUsed):
		keyOf(strings.TrimPrefix(name, prefixUsed)).Used += n
	case strings.HasPrefix(name, prefixDropped):
		k, why, _ := strings.Cut(strings.TrimPrefix(name, prefixDropped), " ")
		keyOf(k).Dropped[why] += n
	case strings.HasPrefix(name, prefixBad):
		s.Bad = append(s.Bad, strings.TrimPrefix(name, prefixBad))
	case strings.HasPrefix(name, prefixWrote):
		s.Written = append(s.Written, strings.TrimPrefix(name, prefixWrote))
	case strings.HasPrefix(name, prefixRefused):
		s.Refused = append(s.Refused, strings.TrimPrefix(name, prefixRefused))
	}
}

// Print writes the summary, a line per fact.
func (s *Summary) Print(w io.Writer) {
	fmt.Fprintf(w, "profgen-fleet: %d inputs read (%d bytes), %d bad\n", s.Inputs, s.Bytes, len(s.Bad))
	for _, b := range s.Bad {
		fmt.Fprintf(w, "profgen-fleet: skipped bad input %s\n", b)
	}
	for _, k := range s.Keys {
		fmt.Fprintf(w, "profgen-fleet: %s: %d inputs%s\n", k.Key, k.Inputs, k.samples())
	}
	for _, r := range s.Refused {
		fmt.Fprintf(w, "profgen-fleet: not written: %s\n", r)
	}
	fmt.Fprintf(w, "profgen-fleet: wrote %d files\n", len(s.Written))
}

// samples says what the key's samples went to, "" for raws.
func (k KeySummary) samples() string {
	if k.Samples == 0 {
		return ""
	}
	var dropped []string
	for _, why := range slices.Sorted(maps.Keys(k.Dropped)) {
		dropped = append(dropped, fmt.Sprintf("%d %s", k.Dropped[why], why))
	}
	out := fmt.Sprintf(", %d samples, %d used", k.Samples, k.Used)
	if len(dropped) > 0 {
		out += "; dropped: " + strings.Join(dropped, ", ")
	}
	return out
}
