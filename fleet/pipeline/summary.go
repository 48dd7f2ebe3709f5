package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
)

// Summary is what the pipeline did. The stages report it as data: each
// read and each key's write emits a fragment (a Summary of one input or
// one key, JSON-encoded), summaryFn combines the fragments, and
// writeSummaryFn writes the whole to OutDir/summaryFile, which Run reads
// back. Only Opens, a measure of the work rather than of the data (it
// follows the number of workers), comes from a Beam counter.
type Summary struct {
	Inputs, Bytes int64
	Bad           []string // the inputs left out and why (--skip-bad-inputs), sorted
	// Empty are the inputs read that hold no usable sample (none in a
	// binary: a host that did not run the program, a profile cut from the
	// start of a recording), and why, sorted: read, counted in Inputs,
	// and left out of every key.
	Empty   []string
	Keys    []KeySummary
	Written []string // the files written, relative to OutDir, sorted
	Refused []string // formats not written for a key, and why, sorted
	// Symbolized are the conversions of merged address profiles: one per
	// key, for all its formats.
	Symbolized int64
	// Opens are the binaries the workers opened: each worker opens each
	// binary once, whatever the number of inputs and keys it handles.
	Opens int64 `json:"-"`
}

// KeySummary is what went into one key's profile: its kind and build ids.
type KeySummary struct {
	Key                   string
	Inputs, Samples, Used int64
	Dropped               map[string]int64 // by reason
}

// summaryFile is the name of the summary in OutDir.
const summaryFile = "profgen-fleet-summary.json"

// add adds the fragment o to s; the result is canonical (sorted), so that
// the runner's grouping and order of fragments cannot change it.
func (s *Summary) add(o *Summary) {
	s.Inputs += o.Inputs
	s.Bytes += o.Bytes
	s.Symbolized += o.Symbolized
	s.Bad = sortedUnion(s.Bad, o.Bad)
	s.Empty = sortedUnion(s.Empty, o.Empty)
	s.Written = sortedUnion(s.Written, o.Written)
	s.Refused = sortedUnion(s.Refused, o.Refused)
	keys := map[string]*KeySummary{}
	for _, k := range append(s.Keys, o.Keys...) {
		keys[k.Key] = keys[k.Key].plus(k)
	}
	s.Keys = s.Keys[:0]
	for _, name := range slices.Sorted(maps.Keys(keys)) {
		s.Keys = append(s.Keys, *keys[name])
	}
}

// plus is k (nil: none) with o's counts added.
func (k *KeySummary) plus(o KeySummary) *KeySummary {
	sum := &KeySummary{Key: o.Key, Dropped: map[string]int64{}}
	if k != nil {
		*sum = KeySummary{Key: k.Key, Inputs: k.Inputs, Samples: k.Samples, Used: k.Used, Dropped: maps.Clone(k.Dropped)}
	}
	sum.Inputs, sum.Samples, sum.Used = sum.Inputs+o.Inputs, sum.Samples+o.Samples, sum.Used+o.Used
	for why, n := range o.Dropped {
		sum.Dropped[why] += n
	}
	return sum
}

// sortedUnion is a and b in one sorted list.
func sortedUnion(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	return slices.Sorted(slices.Values(append(slices.Clone(a), b...)))
}

// encode is the fragment as the stages emit it.
func (s *Summary) encode() string {
	data, err := json.Marshal(s)
	if err != nil {
		panic(err) // a Summary always encodes
	}
	return string(data)
}

// decodeSummary reads a fragment or a summary.
func decodeSummary(data []byte) (*Summary, error) {
	s := &Summary{}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("summary: %w", err)
	}
	return s, nil
}

// summaryFn combines the fragments into the Summary (JSON-encoded).
type summaryFn struct{}

var summaryType = reflect.TypeOf((*Summary)(nil))

func (summaryFn) CreateAccumulator() *Summary { return &Summary{} }

func (summaryFn) AddInput(a *Summary, in string) (*Summary, error) {
	o, err := decodeSummary([]byte(in))
	if err != nil {
		return nil, err
	}
	a.add(o)
	return a, nil
}

func (summaryFn) MergeAccumulators(a, b *Summary) *Summary {
	a.add(b)
	return a
}

func (summaryFn) ExtractOutput(a *Summary) string { return a.encode() }

// encodeSummaryAccumulator and decodeSummaryAccumulator are the
// accumulator's coder.
func encodeSummaryAccumulator(s *Summary) []byte { return []byte(s.encode()) }

func decodeSummaryAccumulator(data []byte) (*Summary, error) { return decodeSummary(data) }

// writeSummaryFn writes the combined summary to OutDir/summaryFile.
type writeSummaryFn struct{ OutDir string }

func (f *writeSummaryFn) ProcessElement(ctx context.Context, summary string) error {
	return writeOut(ctx, f.OutDir, summaryFile, func(path string) error { return writeLocal(path, []byte(summary)) })
}

// readSummary reads the summary the pipeline wrote to outDir, with the
// work counters of its run.
func readSummary(ctx context.Context, outDir string, counters []metrics.CounterResult) (*Summary, error) {
	local, done, err := localCopy(ctx, strings.TrimSuffix(outDir, "/")+"/"+summaryFile)
	if err != nil {
		return nil, err
	}
	defer done()
	data, err := os.ReadFile(local)
	if err != nil {
		return nil, err
	}
	s, err := decodeSummary(data)
	if err != nil {
		return nil, err
	}
	for _, c := range counters {
		if c.Namespace() == counterNamespace && c.Name() == counterOpens {
			s.Opens += c.Result()
		}
	}
	return s, nil
}

// Print writes the summary, a line per fact.
func (s *Summary) Print(w io.Writer) {
	fmt.Fprintf(w, "profgen-fleet: %d inputs read (%d bytes), %d bad, %d without a usable sample\n", s.Inputs, s.Bytes, len(s.Bad), len(s.Empty))
	for _, b := range s.Bad {
		fmt.Fprintf(w, "profgen-fleet: skipped bad input %s\n", b)
	}
	printEmpty(w, s.Empty)
	for _, k := range s.Keys {
		fmt.Fprintf(w, "profgen-fleet: %s: %d inputs%s\n", k.Key, k.Inputs, k.samples())
	}
	for _, r := range s.Refused {
		fmt.Fprintf(w, "profgen-fleet: not written: %s\n", r)
	}
	fmt.Fprintf(w, "profgen-fleet: wrote %d files (and %s)\n", len(s.Written), summaryFile)
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

// shownEmpty is how many of the inputs without a usable sample the
// printed summary names; the summary file names them all.
const shownEmpty = 5

// printEmpty names the first inputs without a usable sample.
func printEmpty(w io.Writer, empty []string) {
	for _, e := range empty[:min(len(empty), shownEmpty)] {
		fmt.Fprintf(w, "profgen-fleet: no usable sample in %s\n", e)
	}
	if n := len(empty) - shownEmpty; n > 0 {
		fmt.Fprintf(w, "profgen-fleet: ... and %d more inputs without a usable sample (%s lists them)\n", n, summaryFile)
	}
}
