package sampleprof

import (
	"math/bits"
	"sort"
)

// Summary is LLVM's ProfileSummary of a sample profile: totals over every
// body count (inlinees included) and, for each cutoff, the smallest count
// among the hottest counts that make up that share of all samples.
type Summary struct {
	TotalCount       uint64
	MaxCount         uint64
	MaxFunctionCount uint64 // largest head count of a top-level function
	NumCounts        uint64
	NumFunctions     uint64
	Detailed         []SummaryEntry
}

// SummaryEntry says that the NumCounts hottest counts, each at least
// MinCount, hold Cutoff/1e6 of all samples.
type SummaryEntry struct {
	Cutoff    uint64 // parts per million
	MinCount  uint64
	NumCounts uint64
}

// summaryScale is the denominator of the cutoffs.
const summaryScale = 1000000

// DefaultCutoffs are ProfileSummaryBuilder's default detailed-summary cutoffs.
var DefaultCutoffs = []uint64{10000, 100000, 200000, 300000, 400000, 500000, 600000,
	700000, 800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999}

// The cutoffs ProfileSummaryInfo uses for hot and cold counts by default
// (-profile-summary-cutoff-hot/-cold).
const (
	CutoffHot  = 990000
	CutoffCold = 999999
)

// ComputeSummary summarizes p as SampleProfileSummaryBuilder does.
func ComputeSummary(p *Profile) *Summary {
	if p.CS {
		p = p.ContextLess()
	}
	s := &Summary{}
	freq := map[uint64]uint64{}
	for _, f := range p.Functions {
		s.NumFunctions++
		s.MaxFunctionCount = max(s.MaxFunctionCount, f.HeadSamples)
		s.addCounts(f, freq)
	}
	s.Detailed = detailedSummary(freq, s.TotalCount, DefaultCutoffs)
	return s
}

func (s *Summary) addCounts(f *FunctionSamples, freq map[uint64]uint64) {
	for _, r := range f.Body {
		s.TotalCount += r.Samples
		s.MaxCount = max(s.MaxCount, r.Samples)
		s.NumCounts++
		freq[r.Samples]++
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			if c.Attributes&ContextDuplicatedIntoBase == 0 { // counted in its base profile
				s.addCounts(c, freq)
			}
		}
	}
}

// detailedSummary walks the counts from the hottest down until their sum
// reaches each cutoff's share of total.
func detailedSummary(freq map[uint64]uint64, total uint64, cutoffs []uint64) []SummaryEntry {
	counts := make([]uint64, 0, len(freq))
	for c := range freq {
		counts = append(counts, c)
	}
	sort.Slice(counts, func(i, j int) bool { return counts[i] > counts[j] })
	var entries []SummaryEntry
	var sum, seen, count uint64
	i := 0
	for _, cutoff := range cutoffs {
		desired := shareOf(total, cutoff)
		for sum < desired && i < len(counts) {
			count = counts[i]
			sum += count * freq[count]
			seen += freq[count]
			i++
		}
		entries = append(entries, SummaryEntry{Cutoff: cutoff, MinCount: count, NumCounts: seen})
	}
	return entries
}

// shareOf returns total*cutoff/1e6 without overflow.
func shareOf(total, cutoff uint64) uint64 {
	hi, lo := bits.Mul64(total, cutoff)
	q, _ := bits.Div64(hi, lo, summaryScale)
	return q
}

// entryFor returns the first entry whose cutoff is at least percentile.
func (s *Summary) entryFor(percentile uint64) (SummaryEntry, bool) {
	i := sort.Search(len(s.Detailed), func(i int) bool { return s.Detailed[i].Cutoff >= percentile })
	if i == len(s.Detailed) {
		return SummaryEntry{}, false
	}
	return s.Detailed[i], true
}

// HotThreshold is the count from which a sample is hot, as LLVM's
// ProfileSummaryInfo computes it by default (cutoff 99%).
func (s *Summary) HotThreshold() uint64 {
	e, _ := s.entryFor(CutoffHot)
	return e.MinCount
}

// ColdThreshold is the count up to which a sample is cold (cutoff 99.9999%).
func (s *Summary) ColdThreshold() uint64 {
	e, _ := s.entryFor(CutoffCold)
	return e.MinCount
}
