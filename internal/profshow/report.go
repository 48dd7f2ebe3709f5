// Package profshow describes a profile for people and for scripts. A parsed
// profile flows in; out comes a Summary (totals, LLVM's hot and cold count
// thresholds, the hottest functions) or one function's tree (body counts,
// call targets, inlinees), each rendered as text or JSON. Names are shown
// demangled next to their linkage names.
package profshow

import (
	"sort"

	"github.com/ianlancetaylor/demangle"
	"github.com/profgen/profgen/internal/sampleprof"
)

// Summary is the overview of a sample profile.
type Summary struct {
	Format        string `json:"format"`
	Functions     int    `json:"functions"`      // top-level profiles
	HotFunctions  int    `json:"hot_functions"`  // with a count at or above HotThreshold
	HotSamples    Sum    `json:"hot_samples"`    // total samples of the hot functions
	TotalSamples  Sum    `json:"total_samples"`  // sum of the top-level totals, in 128 bits
	BodyCounts    uint64 `json:"body_counts"`    // number of body counts, inlinees included
	MaxCount      uint64 `json:"max_count"`      // largest body count
	HotThreshold  uint64 `json:"hot_threshold"`  // LLVM's hot count (99% cutoff)
	ColdThreshold uint64 `json:"cold_threshold"` // LLVM's cold count (99.9999% cutoff)
	MD5Names      bool   `json:"md5_names,omitempty"`
	FSDiscrim     bool   `json:"fs_discriminators,omitempty"` // flow-sensitive discriminators
	ProbeBased    bool   `json:"probe_based,omitempty"`       // locations are pseudo-probe ids
	Hottest       []Hot  `json:"hottest"`
}

// Hot is one of the hottest functions.
type Hot struct {
	Name      string  `json:"name"`
	Demangled string  `json:"demangled,omitempty"`
	Total     uint64  `json:"total"`
	Head      uint64  `json:"head"`
	Percent   float64 `json:"percent"` // of all top-level samples
	MaxCount  uint64  `json:"max_count"`
}

// Summarize describes p; top bounds the list of hottest functions. Hot
// functions are those whose largest count (inlinees included) reaches the
// hot threshold, as llvm-profdata show --hot-func-list counts them.
func Summarize(p *sampleprof.Profile, format string, top int) *Summary {
	ps := sampleprof.ComputeSummary(p)
	s := &Summary{
		Format:        format,
		Functions:     len(p.Functions),
		BodyCounts:    ps.NumCounts,
		MaxCount:      ps.MaxCount,
		HotThreshold:  ps.HotThreshold(),
		ColdThreshold: ps.ColdThreshold(),
		MD5Names:      p.MD5,
		FSDiscrim:     p.FSDiscriminators,
		ProbeBased:    p.ProbeBased,
	}
	fs := p.SortedFunctions()
	for _, f := range fs {
		s.TotalSamples.Add(f.TotalSamples)
		if maxCount(f) >= s.HotThreshold && s.HotThreshold > 0 {
			s.HotFunctions++
			s.HotSamples.Add(f.TotalSamples)
		}
	}
	for _, f := range fs[:min(top, len(fs))] {
		s.Hottest = append(s.Hottest, Hot{
			Name: f.Name, Demangled: demangled(f.Name),
			Total: f.TotalSamples, Head: f.HeadSamples,
			Percent: SumOf(f.TotalSamples).Share(s.TotalSamples), MaxCount: maxCount(f),
		})
	}
	return s
}

// maxCount is the largest body count of f and its inlinees.
func maxCount(f *sampleprof.FunctionSamples) uint64 {
	var m uint64
	for _, r := range f.Body {
		m = max(m, r.Samples)
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			m = max(m, maxCount(c))
		}
	}
	return m
}

// percent is n's percentage of total as LLVM computes a hot function's
// row: n*100.0, then the division.
func percent(n, total uint64) float64 {
	if total == 0 {
		return 0
	}
	return float64(n) * 100 / float64(total)
}

// demangled returns the demangled name, or "" when name is not mangled.
func demangled(name string) string {
	d := demangle.Filter(name)
	if d == name {
		return ""
	}
	return d
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
