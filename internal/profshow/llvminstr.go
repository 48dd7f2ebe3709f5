package profshow

// llvm-profdata-22 show's text for indexed instrumentation profiles (or
// with LLVMOptions.Version 19, llvm-profdata-19's), line for line, for llvm's own flags (--all-functions, --counts, --function,
// --topn, --detailed-summary, --ic-targets, --memop-sizes, --showcs).

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/instrprof"
	"github.com/profgen/profgen/internal/instrprof/indexed"
	"github.com/profgen/profgen/internal/instrprof/raw"
	"github.com/profgen/profgen/internal/instrprof/text"
	"github.com/profgen/profgen/internal/profformat"
)

// LLVMOptions are llvm-profdata show's flags for instrumentation profiles.
type LLVMOptions struct {
	AllFunctions    bool
	Counts          bool
	Function        string // functions whose name contains it
	TopN            int
	DetailedSummary bool
	// DetailedCutoffs replace the default detailed-summary cutoffs
	// (--detailed-summary-cutoffs, parts per million).
	DetailedCutoffs []uint64
	ICTargets       bool
	MemOPSizes      bool
	ShowCS          bool
	ShowProfSymList bool // sample profiles: the profile symbol list
	Covered         bool // only the names of functions with a nonzero counter
	ValueCutoff     uint64
	ListBelowCutoff bool
	BinaryIDs       bool
	ProfileVersion  bool
	Text            bool // the functions shown in the text format
	TemporalTraces  bool
	VTables         bool
	HotFuncList     bool // sample profiles: the hot functions
	ShowSecInfoOnly bool // sample profiles: the extbinary section table only
	// ShowFormat is --show-format: "text" (or ""), "json" (sample
	// profiles only, as llvm's JSON) or "yaml" (MemProf only: refused).
	ShowFormat string
	// Version is the llvm-profdata release whose text is written: LLVM22
	// (also for 0) or LLVM19.
	Version int
}

// instrShow is one run of llvm's showInstrProfile.
type instrShow struct {
	w       io.Writer
	opts    LLVMOptions
	kind    instrprof.Kind
	names   map[uint64]string
	sum     *indexed.Summary
	info    indexed.Info
	shown   int
	below   int
	top     topN    // LLVM 19's --topn
	ranked  ranking // LLVM 22's --topn and --hot-func-list
	icStats siteStats
	vtStats siteStats
	moStats siteStats
}

// WriteLLVMInstr writes what llvm-profdata-22 (or opts.Version) show prints for the indexed
// profile at path with opts.
func WriteLLVMInstr(w io.Writer, path string, opts LLVMOptions) error {
	recs, info, err := ReadInstrRecords(path)
	if err != nil {
		return err
	}
	s := &instrShow{w: w, opts: opts, kind: info.Kind, info: info, names: map[uint64]string{}, sum: indexed.NewSummary(), top: topN{n: opts.TopN}}
	for _, r := range recs {
		s.names[instrprof.NameRef(r.Name)] = r.Name
	}
	for _, n := range info.VTableNames {
		s.names[instrprof.NameRef(n)] = n
	}
	switch {
	case opts.Text && s.isIR():
		fmt.Fprintln(w, ":ir")
	case !opts.Text && opts.ListBelowCutoff:
		fmt.Fprintf(w, "The list of functions with the maximum counter less than %d:\n", opts.ValueCutoff)
	}
	for _, r := range recs {
		s.record(r)
	}
	s.footer()
	return nil
}

// ReadInstrRecords reads the records of an indexed profile in file order,
// of a .proftext in text order or of a raw profile in data-record order,
// as llvm's readers give them.
func ReadInstrRecords(path string) ([]*instrprof.Record, indexed.Info, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, indexed.Info{}, err
	}
	var recs []*instrprof.Record
	keep := func(r *instrprof.Record) {
		c := *r
		c.Counts = append([]uint64(nil), r.Counts...)
		c.Bitmap = append([]byte(nil), r.Bitmap...)
		recs = append(recs, &c)
	}
	if profformat.Sniff(data) == profformat.InstrText {
		info, err := text.Read(path, bytes.NewReader(data), func(r *instrprof.Record, _ int64) error {
			keep(r)
			return nil
		})
		return recs, indexed.Info{Kind: info.Kind, Records: info.Records, Traces: info.Traces, TraceStream: info.TraceStream, VTableNames: info.TargetNames}, err
	}
	if profformat.Sniff(data).IsRaw() {
		var rd raw.Reader
		info, err := rd.Read(path, data, func(r *instrprof.Record, _ uint64, _ int64) error {
			keep(r)
			return nil
		})
		// llvm prints a raw's whole version word, variant bits included
		version := int(uint64(info.Version) | uint64(info.Kind))
		out := indexed.Info{Version: version, Kind: info.Kind, BinaryIDs: info.BinaryIDs, Records: info.Records, VTableNames: info.VTableNames}
		if len(info.Trace) > 0 { // a temporal raw: its one trace, as llvm's raw reader gives it
			out.Traces, out.TraceStream = []instrprof.Trace{{Weight: 1, Refs: info.Trace}}, 1
		}
		return recs, out, err
	}
	info, err := indexed.Read(path, data, func(r *instrprof.Record, _ int64) error {
		keep(r)
		return nil
	})
	return recs, info, err
}

func (s *instrShow) isIR() bool { return s.kind&instrprof.KindIR != 0 }

// record shows one record, as llvm's loop over the reader does.
func (s *instrShow) record(r *instrprof.Record) {
	if s.isIR() && (r.Hash&instrprof.CSFlagInHash != 0) != s.opts.ShowCS {
		return
	}
	show := s.opts.AllFunctions || s.opts.Function != "" && strings.Contains(r.Name, s.opts.Function)
	if show && s.opts.Text {
		text.WriteRecord(s.w, r, s.names)
		return
	}
	s.sum.Add(r)
	if s.opts.Covered {
		if slices.ContainsFunc(r.Counts, func(c uint64) bool { return c != 0 }) {
			fmt.Fprintln(s.w, r.Name)
		}
		return
	}
	if k := r.PseudoKind(); k != 0 {
		if show {
			s.header(r)
			fmt.Fprintf(s.w, "    Counters: %d    <%s>\n", len(r.Counts), map[uint64]string{instrprof.PseudoHot: "PseudoHot", instrprof.PseudoWarm: "PseudoWarm"}[k])
		}
		return
	}
	var fmax, fsum uint64
	for _, c := range r.Counts {
		fmax = max(fmax, c)
		fsum += c
	}
	if fmax < s.opts.ValueCutoff {
		s.below++
		if s.opts.ListBelowCutoff {
			fmt.Fprintf(s.w, "  %s: (Max = %d Sum = %d)\n", r.Name, fmax, fsum)
		}
		return
	}
	if s.opts.ListBelowCutoff {
		return
	}
	s.rank(r.Name, fmax)
	if show {
		s.function(r)
	}
}

// rank keeps a function's largest counter for --topn (and in LLVM 22
// --hot-func-list).
func (s *instrShow) rank(name string, count uint64) {
	switch {
	case s.opts.is19():
		s.top.push(name, count)
	case s.opts.TopN > 0 || s.opts.HotFuncList:
		s.ranked = append(s.ranked, hotFunc{name, count})
	}
}

// topFunctions writes the --topn list and, in LLVM 22, the
// --hot-func-list: the functions whose largest counter reaches the hot
// threshold, hottest first.
func (s *instrShow) topFunctions() {
	top := s.top.sorted()
	if !s.opts.is19() {
		top = s.ranked.sorted()
	}
	if s.opts.TopN > 0 {
		fmt.Fprintf(s.w, "Top %d functions with the largest internal block counts: \n", s.opts.TopN)
		for _, f := range top[:min(s.opts.TopN, len(top))] {
			fmt.Fprintf(s.w, "  %s, max count = %d\n", f.name, f.count)
		}
	}
	if !s.opts.HotFuncList || s.opts.is19() {
		return
	}
	threshold := s.sum.DetailedAt([]uint64{hotFuncCutoff})[0].MinCount
	fmt.Fprintf(s.w, "# Hot count threshold: %d\n", threshold)
	for _, f := range top {
		if f.count >= threshold {
			fmt.Fprintln(s.w, f.name)
		}
	}
}

func (s *instrShow) header(r *instrprof.Record) {
	if s.shown == 0 {
		fmt.Fprintln(s.w, "Counters:")
	}
	s.shown++
	fmt.Fprintf(s.w, "  %s:\n    Hash: 0x%016x\n", r.Name, r.Hash)
}

func (s *instrShow) function(r *instrprof.Record) {
	s.header(r)
	fmt.Fprintf(s.w, "    Counters: %d\n", len(r.Counts))
	if !s.isIR() {
		fmt.Fprintf(s.w, "    Function count: %d\n", r.Counts[0])
	}
	ic, mo := r.Sites[instrprof.ValueIndirectCall], r.Sites[instrprof.ValueMemOPSize]
	if s.opts.ICTargets {
		fmt.Fprintf(s.w, "    Indirect Call Site Count: %d\n", len(ic))
	}
	vt := r.Sites[instrprof.ValueVTable]
	if s.opts.VTables {
		fmt.Fprintf(s.w, "    Number of instrumented vtables: %d\n", len(vt))
	}
	if s.opts.MemOPSizes && len(mo) > 0 {
		fmt.Fprintf(s.w, "    Number of Memory Intrinsics Calls: %d\n", len(mo))
	}
	if s.opts.Counts {
		s.blockCounts(r)
	}
	if s.opts.ICTargets {
		fmt.Fprintln(s.w, "    Indirect Target Results:")
		s.icStats.traverse(s.w, ic, s.name)
	}
	if s.opts.VTables {
		fmt.Fprintln(s.w, "    VTable Results:")
		s.vtStats.traverse(s.w, vt, s.name)
	}
	if s.opts.MemOPSizes && len(mo) > 0 {
		fmt.Fprintln(s.w, "    Memory Intrinsic Size Results:")
		s.moStats.traverse(s.w, mo, func(v uint64) string { return fmt.Sprintf("%4d", v) })
	}
}

func (s *instrShow) blockCounts(r *instrprof.Record) {
	start := 1
	if s.isIR() {
		start = 0
	}
	parts := make([]string, 0, len(r.Counts))
	for _, c := range r.Counts[min(start, len(r.Counts)):] {
		parts = append(parts, fmt.Sprint(c))
	}
	fmt.Fprintf(s.w, "    Block counts: [%s]\n", strings.Join(parts, ", "))
}

// name is a call or vtable target's name, as llvm's symbol table gives
// it: empty when the profile does not name it.
func (s *instrShow) name(ref uint64) string { return s.names[ref] }

func (s *instrShow) footer() {
	if s.opts.Text || s.opts.Covered {
		return
	}
	s.level()
	if s.opts.AllFunctions || s.opts.Function != "" {
		fmt.Fprintf(s.w, "Functions shown: %d\n", s.shown)
	}
	s.summary()
	s.topFunctions()
	if s.shown > 0 && s.opts.ICTargets {
		fmt.Fprintln(s.w, "Statistics for indirect call sites profile:")
		s.icStats.write(s.w)
	}
	if s.shown > 0 && s.opts.VTables {
		fmt.Fprintln(s.w, "Statistics for vtable profile:")
		s.vtStats.write(s.w)
	}
	if s.shown > 0 && s.opts.MemOPSizes {
		fmt.Fprintln(s.w, "Statistics for memory intrinsic calls sizes profile:")
		s.moStats.write(s.w)
	}
	if s.opts.DetailedSummary {
		s.detailed()
	}
	if s.opts.BinaryIDs && len(s.info.BinaryIDs) > 0 {
		fmt.Fprintln(s.w, "Binary IDs: ")
		for _, id := range s.info.BinaryIDs {
			fmt.Fprintf(s.w, "%x\n", id)
		}
	}
	if s.opts.ProfileVersion {
		// a raw's whole version word, unsigned: a temporal one's top bit is set
		fmt.Fprintf(s.w, "Profile version: %d\n", uint64(s.info.Version))
	}
	if s.opts.TemporalTraces {
		s.traces()
	}
}

func (s *instrShow) traces() {
	fmt.Fprintf(s.w, "Temporal Profile Traces (samples=%d seen=%d):\n", len(s.info.Traces), s.info.TraceStream)
	for i, t := range s.info.Traces {
		fmt.Fprintf(s.w, "  Temporal Profile Trace %d (weight=%d count=%d):\n", i, t.Weight, len(t.Refs))
		for _, ref := range t.Refs {
			fmt.Fprintf(s.w, "    %s\n", s.names[ref])
		}
	}
}

// level is the line naming the instrumentation level and its variant
// bits (LLVM 20 added instrument_loop_entries).
func (s *instrShow) level() {
	switch {
	case !s.isIR():
		fmt.Fprintln(s.w, "Instrumentation level: Front-end")
	case s.opts.is19():
		fmt.Fprintf(s.w, "Instrumentation level: IR  entry_first = %d\n", b2i(s.kind&instrprof.KindEntryFirst != 0))
	default:
		fmt.Fprintf(s.w, "Instrumentation level: IR  entry_first = %d  instrument_loop_entries = %d\n",
			b2i(s.kind&instrprof.KindEntryFirst != 0), b2i(s.kind&instrprof.KindLoopEntries != 0))
	}
}

// summary writes the profile summary and the counts below and above
// --value-cutoff: LLVM 22 prints the summary whole before the counts,
// LLVM 19 the counts after the number of functions and the number of
// blocks and total count only in the detailed summary.
func (s *instrShow) summary() {
	sum := llvmSummary{functions: s.sum.NumFunctions, maxFunction: s.sum.MaxFunctionCount,
		maxInternal: s.sum.MaxInternalCount, blocks: s.sum.NumBlocks, total: s.sum.TotalCount}
	if s.opts.is19() {
		fmt.Fprintf(s.w, "Total functions: %d\n", sum.functions)
		s.cutoffCounts()
		fmt.Fprintf(s.w, "Maximum function count: %d\nMaximum internal block count: %d\n", sum.maxFunction, sum.maxInternal)
		return
	}
	sum.write(s.w)
	s.cutoffCounts()
}

func (s *instrShow) cutoffCounts() {
	if s.opts.ValueCutoff > 0 {
		fmt.Fprintf(s.w, "Number of functions with maximum count (< %d): %d\n", s.opts.ValueCutoff, s.below)
		fmt.Fprintf(s.w, "Number of functions with maximum count (>= %d): %d\n", s.opts.ValueCutoff, int(s.sum.NumFunctions)-s.below)
	}
}

func (s *instrShow) detailed() {
	if s.opts.is19() {
		fmt.Fprintf(s.w, "Total number of blocks: %d\nTotal count: %d\n", s.sum.NumBlocks, s.sum.TotalCount)
	}
	entries := s.sum.Detailed()
	if len(s.opts.DetailedCutoffs) > 0 {
		entries = s.sum.DetailedAt(s.opts.DetailedCutoffs)
	}
	lines := make([]detailedEntry, len(entries))
	for i, e := range entries {
		lines[i] = detailedEntry{cutoff: e.Cutoff, minCount: e.MinCount, blocks: e.NumBlocks}
	}
	writeDetailed(s.w, lines, s.sum.NumBlocks, s.opts.is19())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
