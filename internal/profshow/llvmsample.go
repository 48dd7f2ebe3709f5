package profshow

// llvm-profdata-22 show --sample's text (LLVMOptions.Version 19:
// llvm-profdata-19's): every function (or --function's)
// as FunctionSamples::print writes it, the profile symbol list and the
// detailed summary.

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/profgen/profgen/internal/sampleprof"
)

// writeLLVMSample writes what llvm-profdata-22 (or opts.LLVM.Version) show
// --sample prints for p.
func writeLLVMSample(w io.Writer, p *sampleprof.Profile, opts Options) error {
	switch {
	case opts.LLVM.ShowFormat == "json":
		writeLLVMSampleJSON(w, p)
	case opts.Function == "" || opts.LLVM.AllFunctions:
		for _, f := range p.SortedFunctions() {
			printFunction(w, f)
		}
	default:
		f := p.Functions[opts.Function]
		if f == nil || p.CS { // a CS profile is keyed by contexts: llvm finds no function by name
			f = sampleprof.NewFunctionSamples("") // llvm's map inserts an empty, unnamed one
		}
		printFunction(w, f)
	}
	if opts.LLVM.ShowProfSymList {
		fmt.Fprintln(w, "======== Dump profile symbol list ========")
		for _, s := range sortedUnique(p.SymbolList) {
			fmt.Fprintln(w, s)
		}
	}
	if opts.LLVM.DetailedSummary {
		writeSampleSummary(w, sampleprof.ComputeSummary(p), opts.LLVM.is19())
	}
	if opts.LLVM.HotFuncList || opts.LLVM.TopN > 0 {
		writeHotFunctions(w, p, opts.LLVM.TopN)
	}
	return nil
}

func printFunction(w io.Writer, f *sampleprof.FunctionSamples) {
	fmt.Fprintf(w, "Function: %s: ", profileName(f))
	printSamples(w, f, 0)
}

// profileName names a top-level profile as LLVM prints it: its function,
// or in a CS profile its context.
func profileName(f *sampleprof.FunctionSamples) string {
	if f.Context != nil {
		return sampleprof.ContextString(f.Context)
	}
	return f.Name
}

// printSamples is LLVM's FunctionSamples::print at indent.
func printSamples(w io.Writer, f *sampleprof.FunctionSamples, indent int) {
	pad := strings.Repeat(" ", indent)
	if f.Checksum != 0 {
		fmt.Fprintf(w, "CFG checksum %d\n", f.Checksum)
	}
	fmt.Fprintf(w, "%d, %d, %d sampled lines\n%s", f.TotalSamples, f.HeadSamples, len(f.Body), pad)
	if len(f.Body) == 0 {
		fmt.Fprintln(w, "No samples collected in the function's body")
	} else {
		fmt.Fprintln(w, "Samples collected in the function's body {")
		for _, loc := range sampleprof.SortedLocations(f.Body) {
			fmt.Fprintf(w, "%s  %s: %s\n", pad, locText(loc), recordText(f.Body[loc]))
			printVTables(w, f, loc, pad)
		}
		fmt.Fprintf(w, "%s}\n", pad)
	}
	fmt.Fprint(w, pad)
	if len(f.Callsites) == 0 {
		fmt.Fprintln(w, "No inlined callsites in this function")
		return
	}
	fmt.Fprintln(w, "Samples collected in inlined callsites {")
	for _, loc := range sampleprof.SortedLocations(f.Callsites) {
		for _, c := range sampleprof.SortedInlinees(f.Callsites[loc]) {
			fmt.Fprintf(w, "%s  %s: inlined callee: %s: ", pad, locText(loc), c.Name)
			printSamples(w, c, indent+4)
		}
		printVTables(w, f, loc, pad)
	}
	fmt.Fprintf(w, "%s}\n", pad)
}

// printVTables prints the vtable type counts at loc as LLVM 22's
// printTypeCountMap, after its indentation; empty counts print the
// indentation alone, as LLVM does.
func printVTables(w io.Writer, f *sampleprof.FunctionSamples, loc sampleprof.LineLocation, pad string) {
	m, ok := f.VTables[loc]
	if !ok {
		return
	}
	fmt.Fprintf(w, "%s  ", pad)
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: vtables: ", locText(loc))
	for _, t := range m.Sorted() {
		fmt.Fprintf(w, "%s:%d ", t.Name, t.Count)
	}
	fmt.Fprintln(w)
}

func locText(l sampleprof.LineLocation) string {
	if l.Discriminator > 0 {
		return fmt.Sprintf("%d.%d", l.LineOffset, l.Discriminator)
	}
	return fmt.Sprint(l.LineOffset)
}

func recordText(r *sampleprof.SampleRecord) string {
	s := fmt.Sprint(r.Samples)
	if len(r.CallTargets) == 0 {
		return s
	}
	s += ", calls:"
	for _, t := range r.SortedCallTargets() {
		s += fmt.Sprintf(" %s:%d", t.Name, t.Count)
	}
	return s
}

// writeSampleSummary is LLVM's ProfileSummary printSummary and
// printDetailedSummary. A sample summary has no internal block count:
// LLVM 22 prints 0, LLVM 19 printed the largest block count instead.
func writeSampleSummary(w io.Writer, s *sampleprof.Summary, v19 bool) {
	if v19 {
		fmt.Fprintf(w, "Total functions: %d\nMaximum function count: %d\nMaximum block count: %d\nTotal number of blocks: %d\nTotal count: %d\n",
			s.NumFunctions, s.MaxFunctionCount, s.MaxCount, s.NumCounts, s.TotalCount)
	} else {
		llvmSummary{functions: s.NumFunctions, maxFunction: s.MaxFunctionCount, blocks: s.NumCounts, total: s.TotalCount}.write(w)
	}
	lines := make([]detailedEntry, len(s.Detailed))
	for i, e := range s.Detailed {
		lines[i] = detailedEntry{cutoff: e.Cutoff, minCount: e.MinCount, blocks: e.NumCounts}
	}
	writeDetailed(w, lines, s.NumCounts, v19)
}

func sortedUnique(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}
