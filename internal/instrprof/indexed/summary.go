package indexed

import (
	"math/bits"
	"sort"

	"github.com/profgen/profgen/internal/instrprof"
)

// cutoffs are LLVM's default detailed-summary cutoffs, per million.
var cutoffs = []uint64{10000, 100000, 200000, 300000, 400000, 500000, 600000, 700000,
	800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999}

// summary is a profile summary as the indexed format stores it.
type summary struct {
	numFunctions, numBlocks, maxFunctionCount, maxBlockCount, maxInternalCount, totalCount uint64
	freq                                                                                   map[uint64]uint64
}

func newSummary() *summary { return &summary{freq: map[uint64]uint64{}} }

// add counts a record: the first counter as the entry count, the others as
// internal blocks (LLVM's InstrProfSummaryBuilder).
func (s *summary) add(r *instrprof.Record) {
	if len(r.Counts) == 0 || r.PseudoKind() != 0 {
		return
	}
	s.count(r.Counts[0])
	s.numFunctions++
	s.maxFunctionCount = max(s.maxFunctionCount, r.Counts[0])
	for _, c := range r.Counts[1:] {
		s.count(c)
		s.maxInternalCount = max(s.maxInternalCount, c)
	}
}

func (s *summary) count(c uint64) {
	s.totalCount += c
	s.maxBlockCount = max(s.maxBlockCount, c)
	s.numBlocks++
	s.freq[c]++
}

// words encodes the summary: field count, entry count, 6 fields, then
// {cutoff, min count, blocks} per cutoff.
func (s *summary) words() []uint64 {
	w := []uint64{6, uint64(len(cutoffs)), s.numFunctions, s.numBlocks, s.maxFunctionCount,
		s.maxBlockCount, s.maxInternalCount, s.totalCount}
	counts := make([]uint64, 0, len(s.freq))
	for c := range s.freq {
		counts = append(counts, c)
	}
	sort.Slice(counts, func(i, j int) bool { return counts[i] > counts[j] })
	var sum, seen, cur uint64
	i := 0
	for _, cut := range cutoffs {
		hi, lo := bits.Mul64(s.totalCount, cut)
		want, _ := bits.Div64(hi, lo, 1000000)
		for sum < want && i < len(counts) {
			cur = counts[i]
			sum += cur * s.freq[cur]
			seen += s.freq[cur]
			i++
		}
		w = append(w, cut, cur, seen)
	}
	return w
}
