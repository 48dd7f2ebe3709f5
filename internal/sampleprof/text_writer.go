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
//	 offset[.discriminator]: vtables name:count ...  (after the record or inlinees of that location)
//	 offset[.discriminator]: inlined_callee:total
//	  offset[.discriminator]: count ...
//	  !CFGChecksum: checksum        (pseudo-probe profiles, every function)
//	  !Attributes: attributes       (when not 0)
func WriteText(w io.Writer, p *Profile) error { return writeText(w, p, false) }

// writeText is WriteText; with splitLayout (llvm-profdata-22 merge --text
// --split-layout) each top-level function without inlinees ends with a
// "!Flat" line, as it would go to the flat section of an extbinary.
func writeText(w io.Writer, p *Profile, splitLayout bool) error {
	bw := bufio.NewWriter(w)
	tw := textWriter{w: bw, less: nameLess(p.MD5), probes: p.ProbeBased, flat: splitLayout}
	for _, f := range p.SortedFunctions() {
		tw.function(f, 0)
	}
	return bw.Flush()
}

// textWriter writes functions in the text format.
type textWriter struct {
	w      *bufio.Writer
	less   func(a, b string) bool
	probes bool // write each function's CFG checksum
	flat   bool // mark top-level functions without inlinees !Flat
}

func (tw textWriter) function(f *FunctionSamples, indent int) {
	w, less := tw.w, tw.less
	if indent == 0 && f.Context != nil {
		w.WriteByte('[')
		w.WriteString(ContextString(f.Context))
		w.WriteByte(']')
	} else {
		w.WriteString(f.Name)
	}
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
		tw.writeVTables(f, loc, indent+1)
	}
	for _, loc := range SortedLocations(f.Callsites) {
		for _, callee := range sortedInlinees(f.Callsites[loc], less) {
			writeIndent(w, indent+1)
			writeLocation(w, loc)
			w.WriteString(": ")
			tw.function(callee, indent+1)
		}
		tw.writeVTables(f, loc, indent+1)
	}
	if tw.probes {
		writeIndent(w, indent+1)
		w.WriteString("!CFGChecksum: ")
		w.WriteString(strconv.FormatUint(f.Checksum, 10))
		w.WriteByte('\n')
	}
	if f.Attributes != 0 {
		writeIndent(w, indent+1)
		w.WriteString("!Attributes: ")
		w.WriteString(strconv.FormatUint(uint64(f.Attributes), 10))
		w.WriteByte('\n')
	}
	if tw.flat && indent == 0 && len(f.Callsites) == 0 {
		w.WriteString(" " + flatMetadata + "\n")
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
