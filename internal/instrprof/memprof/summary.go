package memprof

import (
	"fmt"
	"io"
)

// Summary counts a profile's allocation contexts by hotness, as llvm's
// MemProfSummary (written in version 4, printed by show --memory).
type Summary struct {
	Contexts, ColdContexts, HotContexts                 uint64
	MaxColdTotalSize, MaxWarmTotalSize, MaxHotTotalSize uint64
}

// numSummaryFields is the count version 4 writes before the fields.
const numSummaryFields = 6

// Thresholds of llvm's allocation hotness (MemProfCommon.cpp defaults).
const (
	lifetimeAccessDensityColdThreshold = float32(0.05)
	aveLifetimeColdThreshold           = 200
	minAveLifetimeAccessDensityHot     = 1000
)

// Hotness of an allocation context.
type Hotness int

// The hotness classes.
const (
	NotCold Hotness = iota
	Cold
	Hot
)

// AllocHotness classifies an MIB as llvm's getAllocType does: cold when
// rarely accessed for a long average lifetime (200 s); hot only with
// useHotHints and a dense average access.
func AllocHotness(m *MIB, useHotHints bool) Hotness {
	density := float32(m.Get(TagTotalLifetimeAccessDensity)) / float32(m.Get(TagAllocCount)) / 100
	lifetime := float32(m.Get(TagTotalLifetime)) / float32(m.Get(TagAllocCount))
	if density < lifetimeAccessDensityColdThreshold && lifetime >= aveLifetimeColdThreshold*1000 {
		return Cold
	}
	if useHotHints && density > minAveLifetimeAccessDensityHot {
		return Hot
	}
	return NotCold
}

// Summarize counts the contexts of d's allocation sites, each stack once.
func Summarize(d *Data) Summary {
	var s Summary
	seen := map[StackID]bool{}
	for _, r := range d.Records {
		for i := range r.AllocSites {
			a := &r.AllocSites[i]
			if !seen[a.Stack] {
				seen[a.Stack] = true
				s.add(&a.Info)
			}
		}
	}
	return s
}

func (s *Summary) add(m *MIB) {
	s.Contexts++
	size := m.Get(TagTotalSize)
	switch AllocHotness(m, false) {
	case Cold:
		s.ColdContexts++
		s.MaxColdTotalSize = max(s.MaxColdTotalSize, size)
	case Hot:
		s.HotContexts++
		s.MaxHotTotalSize = max(s.MaxHotTotalSize, size)
	default:
		s.MaxWarmTotalSize = max(s.MaxWarmTotalSize, size)
	}
}

// words are the fields as version 4 writes them, after the 32-bit count.
func (s Summary) words() []uint64 {
	return []uint64{s.Contexts, s.ColdContexts, s.HotContexts, s.MaxColdTotalSize, s.MaxWarmTotalSize, s.MaxHotTotalSize}
}

// WriteYAMLComment prints the summary as llvm-profdata-22's show --memory
// does: YAML comments after a document start.
func (s Summary) WriteYAMLComment(w io.Writer) {
	fmt.Fprintf(w, "---\n# MemProfSummary:\n#   Total contexts: %d\n#   Total cold contexts: %d\n#   Total hot contexts: %d\n", s.Contexts, s.ColdContexts, s.HotContexts)
	fmt.Fprintf(w, "#   Maximum cold context total size: %d\n#   Maximum warm context total size: %d\n#   Maximum hot context total size: %d\n", s.MaxColdTotalSize, s.MaxWarmTotalSize, s.MaxHotTotalSize)
}
