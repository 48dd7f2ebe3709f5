// Package text reads and writes LLVM's text instrumentation profile format
// (.proftext), the output of `llvm-profdata merge --text`: a kind header
// (":ir", ":csir", ...) then one block per function, sorted by name and
// hash, with counters, bitmap bytes and value sites. Records flow in as
// instrprof.Records through a callback; a finished Profile flows out.
package text

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/profgen/profgen/internal/instrprof"
)

var kindNames = [instrprof.NumValueKinds]string{"IPVK_IndirectCallTarget", "IPVK_MemOPSize", "IPVK_VTableTarget"}

// Write writes p to w.
func Write(w io.Writer, p *instrprof.Profile) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	writeKind(bw, p.Kind)
	funcs := p.Funcs()
	names := make(map[uint64]string, len(funcs))
	for _, f := range funcs {
		names[instrprof.NameRef(f.Name)] = f.Name
	}
	if p.Kind&instrprof.KindTemporal != 0 {
		writeTraces(bw, p, names)
	}
	var num []byte
	for _, f := range funcs {
		num = writeFunc(bw, &f.Record, names, num)
	}
	return bw.Flush()
}

// writeTraces writes the temporal profile traces block.
func writeTraces(w *bufio.Writer, p *instrprof.Profile, names map[uint64]string) {
	fmt.Fprintf(w, ":temporal_prof_traces\n# Num Temporal Profile Traces:\n%d\n# Temporal Profile Trace Stream Size:\n%d\n",
		len(p.Traces), p.TraceStream)
	for _, t := range p.Traces {
		fmt.Fprintf(w, "# Weight:\n%d\n", t.Weight)
		for _, ref := range t.Refs {
			w.WriteString(names[ref])
			w.WriteString(",")
		}
		w.WriteString("\n")
	}
	w.WriteString("\n")
}

// WriteRecord writes one record as Write does (llvm's writeRecordInText);
// names resolves the references of call and vtable targets.
func WriteRecord(w io.Writer, r *instrprof.Record, names map[uint64]string) error {
	bw := bufio.NewWriter(w)
	writeFunc(bw, r, names, nil)
	return bw.Flush()
}

func writeKind(w *bufio.Writer, k instrprof.Kind) {
	if k&instrprof.KindIR != 0 {
		if k&instrprof.KindCS != 0 {
			w.WriteString("# CSIR level Instrumentation Flag\n:csir\n")
		} else {
			w.WriteString("# IR level Instrumentation Flag\n:ir\n")
		}
	}
	if k&instrprof.KindEntryFirst != 0 {
		w.WriteString("# Always instrument the function entry block\n:entry_first\n")
	}
	if k&instrprof.KindLoopEntries != 0 {
		w.WriteString("# Always instrument the loop entry blocks\n:instrument_loop_entries\n")
	}
	if k&instrprof.KindByteCoverage != 0 {
		w.WriteString("# Instrument block coverage\n:single_byte_coverage\n")
	}
}

func writeFunc(w *bufio.Writer, r *instrprof.Record, names map[uint64]string, num []byte) []byte {
	line := func(v uint64) {
		num = strconv.AppendUint(num[:0], v, 10)
		num = append(num, '\n')
		w.Write(num)
	}
	w.WriteString(r.Name)
	w.WriteString("\n# Func Hash:\n")
	line(r.Hash)
	w.WriteString("# Num Counters:\n")
	line(uint64(len(r.Counts)))
	w.WriteString("# Counter Values:\n")
	for _, c := range r.Counts {
		line(c)
	}
	if len(r.Bitmap) > 0 {
		fmt.Fprintf(w, "# Num Bitmap Bytes:\n$%d\n# Bitmap Byte Values:\n", len(r.Bitmap))
		for _, b := range r.Bitmap {
			fmt.Fprintf(w, "0x%x\n", b)
		}
		w.WriteString("\n")
	}
	writeValues(w, r, names)
	w.WriteString("\n")
	return num
}

func writeValues(w *bufio.Writer, r *instrprof.Record, names map[uint64]string) {
	kinds := 0
	for k := range r.Sites {
		if len(r.Sites[k]) > 0 {
			kinds++
		}
	}
	if kinds == 0 {
		return
	}
	fmt.Fprintf(w, "# Num Value Kinds:\n%d\n", kinds)
	for k, sites := range r.Sites {
		if len(sites) == 0 {
			continue
		}
		fmt.Fprintf(w, "# ValueKind = %s:\n%d\n# NumValueSites:\n%d\n", kindNames[k], k, len(sites))
		for _, vs := range sites {
			fmt.Fprintf(w, "%d\n", len(vs))
			for _, v := range vs {
				if k == instrprof.ValueMemOPSize {
					fmt.Fprintf(w, "%d:%d\n", v.Value, v.Count)
					continue
				}
				name, ok := names[v.Value]
				if !ok {
					name = "** External Symbol **"
				}
				fmt.Fprintf(w, "%s:%d\n", name, v.Count)
			}
		}
	}
}
