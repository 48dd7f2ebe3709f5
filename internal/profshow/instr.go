package profshow

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
)

// InstrSummary summarizes an indexed instrumentation profile with the
// numbers llvm-profdata show prints.
type InstrSummary struct {
	Format                string           `json:"format"`
	Version               int              `json:"version"`
	Functions             int              `json:"functions"`
	MaxFunctionCount      uint64           `json:"max_function_count"`
	MaxInternalBlockCount uint64           `json:"max_internal_block_count"`
	Hottest               []*InstrFunction `json:"hottest"`
}

// InstrFunction is one function's record.
type InstrFunction struct {
	Name     string   `json:"name"`
	Demangle string   `json:"demangled,omitempty"`
	Hash     uint64   `json:"hash"`
	MaxCount uint64   `json:"max_count"`
	Counts   []uint64 `json:"counts,omitempty"`
}

// ReadInstr reads the indexed profile at path into its functions, in name
// order, with their counters.
func ReadInstr(path string) (*InstrSummary, []*InstrFunction, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var fns []*InstrFunction
	info, err := indexed.Read(path, data, func(r *instrprof.Record, _ int64) error {
		fns = append(fns, newInstrFunction(r))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sort.Slice(fns, func(i, j int) bool {
		return fns[i].Name < fns[j].Name || fns[i].Name == fns[j].Name && fns[i].Hash < fns[j].Hash
	})
	s := &InstrSummary{Format: "indexed instrumentation", Version: info.Version, Functions: len(fns)}
	for _, f := range fns {
		s.addFunction(f)
	}
	return s, fns, nil
}

func newInstrFunction(r *instrprof.Record) *InstrFunction {
	f := &InstrFunction{Name: r.Name, Demangle: demangled(r.Name), Hash: r.Hash, Counts: append([]uint64(nil), r.Counts...)}
	for _, c := range r.Counts {
		f.MaxCount = max(f.MaxCount, c)
	}
	return f
}

func (s *InstrSummary) addFunction(f *InstrFunction) {
	if len(f.Counts) == 0 {
		return
	}
	s.MaxFunctionCount = max(s.MaxFunctionCount, f.Counts[0])
	for _, c := range f.Counts[1:] {
		s.MaxInternalBlockCount = max(s.MaxInternalBlockCount, c)
	}
}

// TopInstr keeps the top functions by their largest counter in s.Hottest
// (counters left out), as llvm-profdata show --topn orders them.
func (s *InstrSummary) TopInstr(fns []*InstrFunction, top int) {
	sorted := append([]*InstrFunction(nil), fns...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].MaxCount > sorted[j].MaxCount })
	for _, f := range sorted[:min(top, len(sorted))] {
		c := *f
		c.Counts = nil
		s.Hottest = append(s.Hottest, &c)
	}
}

// WriteInstrSummary prints s for people.
func WriteInstrSummary(w io.Writer, s *InstrSummary) error {
	fmt.Fprintf(w, "Format: %s, version %d\n", s.Format, s.Version)
	fmt.Fprintf(w, "Total functions: %d\n", s.Functions)
	fmt.Fprintf(w, "Maximum function count: %d\n", s.MaxFunctionCount)
	fmt.Fprintf(w, "Maximum internal block count: %d\n", s.MaxInternalBlockCount)
	fmt.Fprintln(w, "Hottest functions (largest counter):")
	for _, f := range s.Hottest {
		fmt.Fprintf(w, "  %12d  %s\n", f.MaxCount, displayName(f.Name, f.Demangle))
	}
	return nil
}

// WriteInstrFunction prints one function's counters.
func WriteInstrFunction(w io.Writer, f *InstrFunction) error {
	counts := make([]string, len(f.Counts))
	for i, c := range f.Counts {
		counts[i] = strconv.FormatUint(c, 10)
	}
	fmt.Fprintf(w, "%s\n  Hash: 0x%016x\n  Counters: %d\n  Block counts: [%s]\n",
		displayName(f.Name, f.Demangle), f.Hash, len(f.Counts), strings.Join(counts, ", "))
	return nil
}

// FindInstrFunctions returns the records of name (linkage or demangled).
func FindInstrFunctions(fns []*InstrFunction, name string) []*InstrFunction {
	var out []*InstrFunction
	for _, f := range fns {
		if f.Name == name || f.Demangle == name {
			out = append(out, f)
		}
	}
	return out
}
