package indexed

import (
	"math/bits"
	"slices"
	"sort"

	"github.com/profgen/profgen/internal/instrprof"
)

// cutoffs are LLVM's default detailed-summary cutoffs, per million.
var cutoffs = []uint64{10000, 100000, 200000, 300000, 400000, 500000, 600000, 700000,
	800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999}

// Summary is a profile summary as LLVM's InstrProfSummaryBuilder makes it
// and the indexed format stores it.
type Summary struct {
	NumFunctions, NumBlocks, MaxFunctionCount, MaxBlockCount, MaxInternalCount, TotalCount uint64
	freq                                                                                   map[uint64]uint64
}

// SummaryEntry is one line of the detailed summary: the blocks with count
// MinCount or more hold Cutoff per million of the total count.
type SummaryEntry struct {
	Cutoff, MinCount, NumBlocks uint64
}

// NewSummary returns an empty summary.
func NewSummary() *Summary { return &Summary{freq: map[uint64]uint64{}} }

// Add counts a record: the first counter as the entry count, the others as
// internal blocks. Pseudo-count records are left out, as LLVM does.
func (s *Summary) Add(r *instrprof.Record) {
	if len(r.Counts) == 0 || r.PseudoKind() != 0 {
		return
	}
	s.count(r.Counts[0])
	s.NumFunctions++
	s.MaxFunctionCount = max(s.MaxFunctionCount, r.Counts[0])
	for _, c := range r.Counts[1:] {
		s.count(c)
		s.MaxInternalCount = max(s.MaxInternalCount, c)
	}
}

func (s *Summary) count(c uint64) {
	s.TotalCount += c
	s.MaxBlockCount = max(s.MaxBlockCount, c)
	s.NumBlocks++
	s.freq[c]++
}

// Detailed returns the detailed summary at LLVM's default cutoffs.
func (s *Summary) Detailed() []SummaryEntry { return s.DetailedAt(cutoffs) }

// DetailedAt returns the detailed summary at the cutoffs (parts per
// million of the total count), which LLVM sorts first.
func (s *Summary) DetailedAt(cuts []uint64) []SummaryEntry {
	cuts = slices.Sorted(slices.Values(cuts))
	counts := make([]uint64, 0, len(s.freq))
	for c := range s.freq {
		counts = append(counts, c)
	}
	sort.Slice(counts, func(i, j int) bool { return counts[i] > counts[j] })
	var sum, seen, cur uint64
	i := 0
	out := make([]SummaryEntry, 0, len(cuts))
	for _, cut := range cuts {
		hi, lo := bits.Mul64(s.TotalCount, cut)
		want, _ := bits.Div64(hi, lo, 1000000)
		for sum < want && i < len(counts) {
			cur = counts[i]
			sum += cur * s.freq[cur]
			seen += s.freq[cur]
			i++
		}
		out = append(out, SummaryEntry{cut, cur, seen})
	}
	return out
}

// words encodes the summary: field count, entry count, 6 fields, then
// {cutoff, min count, blocks} per cutoff.
func (s *Summary) words() []uint64 {
	w := []uint64{6, uint64(len(cutoffs)), s.NumFunctions, s.NumBlocks, s.MaxFunctionCount,
		s.MaxBlockCount, s.MaxInternalCount, s.TotalCount}
	for _, e := range s.Detailed() {
		w = append(w, e.Cutoff, e.MinCount, e.NumBlocks)
	}
	return w
}
