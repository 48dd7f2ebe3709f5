package profshow

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/google/pprof/profile"
)

// PprofSummary is the overview of a pprof profile for one sample type:
// its total and the functions with the most flat (self) and cumulative
// (self and callees) value.
type PprofSummary struct {
	Format      string      `json:"format"`
	SampleTypes []string    `json:"sample_types"` // "type/unit"
	SampleType  string      `json:"sample_type"`  // the one summarized
	Samples     int         `json:"samples"`
	Total       int64       `json:"total"`
	Functions   int         `json:"functions"`
	Hottest     []PprofFunc `json:"hottest"`
}

// PprofFunc is one function's flat and cumulative value.
type PprofFunc struct {
	Name      string `json:"name"`
	Demangled string `json:"demangled,omitempty"`
	Flat      int64  `json:"flat"`
	Cum       int64  `json:"cum"`
}

// SummarizePprof summarizes p for its default sample type (the last one
// when the profile names none, as pprof does); top bounds the list.
func SummarizePprof(p *profile.Profile, top int) *PprofSummary {
	s := &PprofSummary{Format: "pprof", Samples: len(p.Sample)}
	idx := len(p.SampleType) - 1
	for i, st := range p.SampleType {
		s.SampleTypes = append(s.SampleTypes, st.Type+"/"+st.Unit)
		if st.Type == p.DefaultSampleType {
			idx = i
		}
	}
	if idx < 0 {
		return s
	}
	s.SampleType = s.SampleTypes[idx]
	funcs := map[string]*PprofFunc{}
	for _, sm := range p.Sample {
		v := sm.Value[idx]
		s.Total += v
		addSample(funcs, sm, v)
	}
	s.Functions = len(funcs)
	s.Hottest = hottest(funcs, top)
	return s
}

// addSample credits v to the leaf function (flat) and once to every
// function on the stack (cum). Inlined frames count as functions.
func addSample(funcs map[string]*PprofFunc, sm *profile.Sample, v int64) {
	seen := map[string]bool{}
	for i, loc := range sm.Location {
		for j, line := range loc.Line {
			name := "?"
			if line.Function != nil {
				name = line.Function.Name
			}
			f := funcs[name]
			if f == nil {
				f = &PprofFunc{Name: name, Demangled: demangled(name)}
				funcs[name] = f
			}
			if i == 0 && j == 0 {
				f.Flat += v
			}
			if !seen[name] {
				seen[name] = true
				f.Cum += v
			}
		}
	}
}

func hottest(funcs map[string]*PprofFunc, top int) []PprofFunc {
	fs := make([]PprofFunc, 0, len(funcs))
	for _, f := range funcs {
		fs = append(fs, *f)
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].Flat != fs[j].Flat {
			return fs[i].Flat > fs[j].Flat
		}
		if fs[i].Cum != fs[j].Cum {
			return fs[i].Cum > fs[j].Cum
		}
		return fs[i].Name < fs[j].Name
	})
	return fs[:min(top, len(fs))]
}

// WritePprofSummary writes s for people.
func WritePprofSummary(w io.Writer, s *PprofSummary) error {
	fmt.Fprintf(w, "Format: %s\n", s.Format)
	fmt.Fprintf(w, "Sample types: %v, summarized: %s\n", s.SampleTypes, s.SampleType)
	fmt.Fprintf(w, "Samples: %d, total %s: %d\n", s.Samples, s.SampleType, s.Total)
	fmt.Fprintf(w, "Functions: %d\n", s.Functions)
	if len(s.Hottest) == 0 {
		return nil
	}
	fmt.Fprintln(w, "Hottest functions:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "flat\tflat%%\tcum\tcum%%\t\n")
	for _, f := range s.Hottest {
		fmt.Fprintf(tw, "%d\t%.2f%%\t%d\t%.2f%%\t  %s\n", f.Flat, pct(f.Flat, s.Total), f.Cum, pct(f.Cum, s.Total), displayName(f.Name, f.Demangled))
	}
	return tw.Flush()
}

func pct(n, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(n) * 100 / float64(total)
}
