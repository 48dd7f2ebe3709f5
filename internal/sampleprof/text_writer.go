package sampleprof

import (
	"bufio"
	"io"
	"strconv"
)

// WriteText writes p in LLVM's sample profile text format:
//
//	name:total:head
//	 offset[.discriminator]: count [callee:count ...]
//	 offset[.discriminator]: inlined_callee:total
//	  offset[.discriminator]: count ...
func WriteText(w io.Writer, p *Profile) error {
	bw := bufio.NewWriter(w)
	less := nameLess(p.MD5)
	for _, f := range p.SortedFunctions() {
		writeTextFunction(bw, f, 0, less)
	}
	return bw.Flush()
}

func writeTextFunction(w *bufio.Writer, f *FunctionSamples, indent int, less func(a, b string) bool) {
	w.WriteString(f.Name)
	w.WriteByte(':')
	w.WriteString(strconv.FormatUint(f.TotalSamples, 10))
	if indent == 0 {
		w.WriteByte(':')
		w.WriteString(strconv.FormatUint(f.HeadSamples, 10))
	}
	w.WriteByte('\n')
	for _, loc := range SortedLocations(f.Body) {
		writeIndent(w, indent+1)
		writeLocation(w, loc)
		w.WriteString(": ")
		r := f.Body[loc]
		w.WriteString(strconv.FormatUint(r.Samples, 10))
		for _, t := range r.sortedCallTargets(less) {
			w.WriteByte(' ')
			w.WriteString(t.Name)
			w.WriteByte(':')
			w.WriteString(strconv.FormatUint(t.Count, 10))
		}
		w.WriteByte('\n')
	}
	for _, loc := range SortedLocations(f.Callsites) {
		for _, callee := range sortedInlinees(f.Callsites[loc], less) {
			writeIndent(w, indent+1)
			writeLocation(w, loc)
			w.WriteString(": ")
			writeTextFunction(w, callee, indent+1, less)
		}
	}
}

func writeLocation(w *bufio.Writer, loc LineLocation) {
	w.WriteString(strconv.FormatUint(uint64(loc.LineOffset), 10))
	if loc.Discriminator > 0 {
		w.WriteByte('.')
		w.WriteString(strconv.FormatUint(uint64(loc.Discriminator), 10))
	}
}

func writeIndent(w *bufio.Writer, n int) {
	for i := 0; i < n; i++ {
		w.WriteByte(' ')
	}
}
