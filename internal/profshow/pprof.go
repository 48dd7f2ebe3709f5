package profshow

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/google/pprof/profile"
	"github.com/ianlancetaylor/demangle"
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
	for _, st := range p.SampleType {
		s.SampleTypes = append(s.SampleTypes, st.Type+"/"+st.Unit)
	}
	idx := sampleIndex(p)
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

// sampleIndex is the index of the default sample type: the one the
// profile names, else the last (as pprof picks); -1 when there is none.
func sampleIndex(p *profile.Profile) int {
	for i, st := range p.SampleType {
		if st.Type == p.DefaultSampleType {
			return i
		}
	}
	return len(p.SampleType) - 1
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

// PprofFunction is one function of a pprof profile with its value by
// source line.
type PprofFunction struct {
	Name       string      `json:"name"`
	Demangled  string      `json:"demangled,omitempty"`
	SampleType string      `json:"sample_type"`
	Flat       int64       `json:"flat"`
	Cum        int64       `json:"cum"`
	Lines      []PprofLine `json:"lines"`
}

// PprofLine is the flat and cumulative value at one line of a function.
type PprofLine struct {
	Line int64 `json:"line"`
	Flat int64 `json:"flat"`
	Cum  int64 `json:"cum"`
}

// FindPprofFunction returns the function named name (as written, or
// demangled, or demangled without parameters) with its lines.
func FindPprofFunction(p *profile.Profile, name string) (*PprofFunction, error) {
	idx := sampleIndex(p)
	if idx < 0 {
		return nil, fmt.Errorf("the profile has no sample types")
	}
	fn, err := matchPprofFunction(p, name)
	if err != nil {
		return nil, err
	}
	st := p.SampleType[idx]
	out := &PprofFunction{Name: fn, Demangled: demangled(fn), SampleType: st.Type + "/" + st.Unit}
	lines := map[int64]*PprofLine{}
	for _, sm := range p.Sample {
		addLines(out, lines, sm, sm.Value[idx])
	}
	for _, l := range lines {
		out.Lines = append(out.Lines, *l)
	}
	sort.Slice(out.Lines, func(i, j int) bool { return out.Lines[i].Line < out.Lines[j].Line })
	return out, nil
}

// addLines credits one sample to the lines of f it passes through.
func addLines(f *PprofFunction, lines map[int64]*PprofLine, sm *profile.Sample, v int64) {
	seenLine := map[int64]bool{}
	inFunc := false
	for i, loc := range sm.Location {
		for j, ln := range loc.Line {
			if ln.Function == nil || ln.Function.Name != f.Name {
				continue
			}
			l := lines[ln.Line]
			if l == nil {
				l = &PprofLine{Line: ln.Line}
				lines[ln.Line] = l
			}
			if i == 0 && j == 0 {
				l.Flat += v
				f.Flat += v
			}
			if !seenLine[ln.Line] {
				seenLine[ln.Line] = true
				l.Cum += v
			}
			inFunc = true
		}
	}
	if inFunc {
		f.Cum += v
	}
}

func matchPprofFunction(p *profile.Profile, name string) (string, error) {
	found := map[string]bool{}
	for _, f := range p.Function {
		if f.Name == name {
			return name, nil
		}
		if demangle.Filter(f.Name) == name || demangle.Filter(f.Name, demangle.NoParams) == name {
			found[f.Name] = true
		}
	}
	names := sortedKeys(found)
	switch len(names) {
	case 0:
		return "", fmt.Errorf("no function %q in the profile", name)
	case 1:
		return names[0], nil
	}
	return "", fmt.Errorf("%q matches %d functions: %s", name, len(names), strings.Join(names, ", "))
}

// WritePprofFunction writes f for people.
func WritePprofFunction(w io.Writer, f *PprofFunction) error {
	fmt.Fprintf(w, "Function: %s\n", displayName(f.Name, f.Demangled))
	fmt.Fprintf(w, "%s: flat %d, cum %d\n", f.SampleType, f.Flat, f.Cum)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "line\tflat\tcum\t\n")
	for _, l := range f.Lines {
		fmt.Fprintf(tw, "%d\t%d\t%d\t\n", l.Line, l.Flat, l.Cum)
	}
	return tw.Flush()
}
