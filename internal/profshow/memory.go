package profshow

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"

	"github.com/profgen/profgen/internal/instrprof/memprof"
	"github.com/profgen/profgen/internal/memprofsym"
)

// showMemory prints a MemProf profile as llvm-profdata show --memory: a
// raw profile symbolized against --profiled-binary, in the raw reader's
// YAML.
func showMemory(w io.Writer, opts Options, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !memprof.IsRaw(b) {
		return showIndexedMemory(w, path, b)
	}
	p, err := ReadMemProfRaw(path, b, opts.ProfiledBinary)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	WriteMemProfRawYAML(bw, p)
	return bw.Flush()
}

// ReadMemProfRaw reads and symbolizes a raw MemProf profile (b, read
// from path) with llvm's checks and words.
func ReadMemProfRaw(path string, b []byte, binPath string) (*memprofsym.Profile, error) {
	raw, err := memprof.ReadRaw(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if binPath == "" {
		var sb strings.Builder
		sb.WriteString("Path to profiled binary is empty, expected binary with one of the following build ids:\n")
		for _, id := range memprof.BuildIDs(b) {
			sb.WriteString("\n BuildId: " + id)
		}
		return nil, fmt.Errorf("%s", sb.String())
	}
	return memprofsym.Symbolize(raw, binPath)
}

// WriteMemProfRawYAML prints a symbolized raw profile as llvm's
// RawMemProfReader::printYAML. AccessHistogram is the pointer the
// runtime recorded (llvm prints its own copy's address, which differs
// from run to run).
func WriteMemProfRawYAML(w io.Writer, p *memprofsym.Profile) {
	memprof.Summarize(p.Data).WriteYAMLComment(w)
	allocFuncs, mibs := 0, 0
	for _, r := range p.Data.Records {
		if len(r.AllocSites) > 0 {
			allocFuncs++
			mibs += len(r.AllocSites)
		}
	}
	fmt.Fprintf(w, "MemprofProfile:\n  Summary:\n    Version: %d\n    NumSegments: %d\n", p.Raw.Version, len(p.Raw.Segments))
	fmt.Fprintf(w, "    NumMibInfo: %d\n    NumAllocFunctions: %d\n    NumStackOffsets: %d\n  Segments:\n", mibs, allocFuncs, p.NumStacks)
	for _, s := range p.Raw.Segments {
		fmt.Fprintf(w, "  -\n    BuildId: %s\n    Start: 0x%X\n    End: 0x%X\n    Offset: 0x%X\n", memprof.BuildIDString(s.BuildID), s.Start, s.End, s.Offset)
	}
	fmt.Fprintln(w, "  Records:")
	for _, r := range p.Data.Records {
		fmt.Fprintf(w, "  -\n    FunctionGUID: %d\n", r.GUID)
		writeRawRecord(w, p, r)
	}
}

func writeRawRecord(w io.Writer, p *memprofsym.Profile, r *memprof.Record) {
	if len(r.AllocSites) > 0 {
		fmt.Fprintln(w, "    AllocSites:")
		for i := range r.AllocSites {
			a := &r.AllocSites[i]
			fmt.Fprintln(w, "    -\n      Callstack:")
			for _, f := range p.Data.StackFrames(a.Stack) {
				writeRawFrame(w, p, f)
			}
			writeRawMIB(w, &a.Info)
		}
	}
	if len(r.CallSites) > 0 {
		fmt.Fprintln(w, "    CallSites:")
		for _, cs := range r.CallSites {
			for _, f := range p.Data.StackFrames(cs.Stack) {
				fmt.Fprintln(w, "    -")
				writeRawFrame(w, p, f)
			}
		}
	}
}

func writeRawFrame(w io.Writer, p *memprofsym.Profile, f memprof.Frame) {
	name, ok := p.Names[f.Function]
	if !ok {
		name = "<None>"
	}
	inline := 0
	if f.Inline {
		inline = 1
	}
	fmt.Fprintf(w, "      -\n        Function: %d\n        SymbolName: %s\n        LineOffset: %d\n        Column: %d\n        Inline: %d\n", f.Function, name, f.LineOffset, f.Column, inline)
}

func writeRawMIB(w io.Writer, m *memprof.MIB) {
	fmt.Fprintln(w, "      MemInfoBlock:")
	for i, f := range memprof.Fields {
		fmt.Fprintf(w, "        %s: %d\n", f.Name, m.Values[i])
	}
	if len(m.Histogram) > 0 {
		fmt.Fprint(w, "        AccessHistogramValues:")
		for _, x := range m.Histogram {
			fmt.Fprintf(w, " %d", x)
		}
		fmt.Fprintln(w)
	}
}

// showIndexedMemory prints an indexed profile's MemProf section as
// llvm-profdata-22 does: the summary, then the records as YAML.
func showIndexedMemory(w io.Writer, path string, b []byte) error {
	info, err := indexed.Read(path, b, func(*instrprof.Record, int64) error { return nil })
	if err != nil {
		return err
	}
	if info.MemProf == nil {
		return fmt.Errorf("%s: no MemProf data in the profile", path)
	}
	bw := bufio.NewWriter(w)
	info.MemProf.Summary.WriteYAMLComment(bw)
	writeMemProfYAML(bw, info.MemProf.Data, info.MemProf.Schema)
	return bw.Flush()
}

// writeMemProfYAML prints records as llvm's MemProf YAML
// (HeapProfileRecords), the MIB fields of the schema.
func writeMemProfYAML(w io.Writer, d *memprof.Data, schema memprof.Schema) {
	if len(d.Records) == 0 {
		fmt.Fprintln(w, "---\n{}\n...")
		return
	}
	fmt.Fprintln(w, "---\nHeapProfileRecords:")
	for _, r := range d.Records {
		fmt.Fprintf(w, "  - %s0x%x\n", yamlKey("GUID"), r.GUID)
		if len(r.AllocSites) > 0 {
			fmt.Fprintln(w, "    AllocSites:")
		}
		for i := range r.AllocSites {
			a := &r.AllocSites[i]
			fmt.Fprintln(w, "      - Callstack:")
			writeYAMLFrames(w, d.StackFrames(a.Stack))
			fmt.Fprintln(w, "        MemInfoBlock:")
			for _, tag := range schemaInOrder(schema) {
				fmt.Fprintf(w, "          %s%d\n", yamlKey(memprof.Fields[tag-1].Name), a.Info.Get(tag))
			}
		}
		if len(r.CallSites) > 0 {
			fmt.Fprintln(w, "    CallSites:")
		}
		for _, cs := range r.CallSites {
			fmt.Fprintln(w, "      - Frames:")
			writeYAMLFrames(w, d.StackFrames(cs.Stack))
			writeCallees(w, cs.Callees)
		}
	}
	fmt.Fprintln(w, "...")
}

// yamlKey is "key:" padded as LLVM's YAML writer pads mapping keys: to 16
// columns, at least one space.
func yamlKey(key string) string {
	return key + ":" + strings.Repeat(" ", max(1, 16-len(key)))
}

func writeYAMLFrames(w io.Writer, frames []memprof.Frame) {
	for _, f := range frames {
		fmt.Fprintf(w, "          - { Function: 0x%x, LineOffset: %d, Column: %d, IsInlineFrame: %t }\n", f.Function, f.LineOffset, f.Column, f.Inline)
	}
}

func writeCallees(w io.Writer, callees []uint64) {
	if len(callees) == 0 {
		return
	}
	parts := make([]string, len(callees))
	for i, g := range callees {
		parts[i] = fmt.Sprintf("0x%x", g)
	}
	fmt.Fprintf(w, "        %s[ %s ]\n", yamlKey("CalleeGuids"), strings.Join(parts, ", "))
}

// schemaInOrder is the schema's fields in MIB order, as llvm prints them.
func schemaInOrder(s memprof.Schema) []int {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
