package main

import (
	"slices"
	"strings"
	"testing"
)

// The sample-profile side of the parity table against llvm-profdata-22,
// the primary reference: the sample rows of parityTable run again against
// 22 (sample22Rows), then the rows of what LLVM 20-22 changed in sample
// profiles (vtable type counts, the split layout's !Flat lines, show's
// summary). Inputs are those of parityTable (testdata/parity/README).

// isSampleRow reports whether a parityTable row is about sample profiles.
func isSampleRow(row parityRow) bool {
	return row.tool == "" && slices.ContainsFunc(row.args, func(a string) bool {
		return a == "--sample" || strings.Contains(a, "{sp:") || strings.Contains(a, ".sample.txt}")
	})
}

// sample22Rows are parityTable's sample rows with llvm-profdata-22 as the
// reference, profgen's flags for 19's output dropped, then sample22Table.
func sample22Rows() []parityRow {
	var rows []parityRow
	for _, row := range parityTable {
		if !isSampleRow(row) {
			continue
		}
		row.llvm = nil
		rows = append(rows, row)
	}
	rows = append(rows, sample22Table...)
	for i := range rows {
		rows[i].tool = "llvm-profdata-22"
	}
	return rows
}

// vtablesExt is llvm-profdata-22's extbinary, vtables kept, of
// vtables.sample.txt and vtables-edge.sample.txt.
const vtablesExt = "{vtables.extbinary}"

func merge22(args ...string) []string {
	return append([]string{"merge", "--sample", "-o", "{out}"}, args...)
}

var sample22Table = []parityRow{
	// Vtable type counts (LLVM 22): text keeps them, with 22's trailing
	// space; extbinary only with --extbinary-write-vtable-type-prof.
	{name: "vtables: text", args: merge22("--text", "{vtables.sample.txt}")},
	{name: "vtables: text, edge cases", args: merge22("--text", "{vtables-edge.sample.txt}")},
	{name: "vtables: extbinary drops them", args: merge22("--extbinary", "{vtables.sample.txt}")},
	{name: "vtables: --extbinary-write-vtable-type-prof", args: merge22("--extbinary", "--extbinary-write-vtable-type-prof", "{vtables.sample.txt}")},
	{name: "vtables: --extbinary-write-vtable-type-prof, edge cases", args: merge22("--extbinary", "--extbinary-write-vtable-type-prof", "{vtables-edge.sample.txt}")},
	{name: "vtables: --extbinary-write-vtable-type-prof --use-md5", args: merge22("--extbinary", "--extbinary-write-vtable-type-prof", "--use-md5", "{vtables.sample.txt}", "{vtables-edge.sample.txt}")},
	{name: "vtables: --extbinary-write-vtable-type-prof --split-layout", args: merge22("--extbinary", "--extbinary-write-vtable-type-prof", "--split-layout", "{vtables.sample.txt}")},
	{name: "vtables: --extbinary-write-vtable-type-prof --compress-all-sections", args: merge22("--extbinary", "--extbinary-write-vtable-type-prof", "--compress-all-sections", "{vtables.sample.txt}"), compare: sameText},
	{name: "vtables: --binary has no room for them", args: merge22("--binary", "--extbinary-write-vtable-type-prof", "{vtables.sample.txt}")},
	{name: "vtables: extbinary read, to text", args: merge22("--text", vtablesExt)},
	{name: "vtables: extbinary read, to extbinary", args: merge22("--extbinary", "--extbinary-write-vtable-type-prof", vtablesExt)},
	{name: "vtables: extbinary read, dropped", args: merge22("--extbinary", vtablesExt)},
	{name: "vtables: merged with weights", args: merge22("--text", "--weighted-input=3,{vtables.sample.txt}", "{vtables.sample.txt}", vtablesExt)},
	{name: "vtables: --convert-sample-profile-layout=flat", args: merge22("--text", "--convert-sample-profile-layout=flat", "{vtables-edge.sample.txt}", "{vtables.sample.txt}")},
	{name: "vtables: --convert-sample-profile-layout=flat, extbinary", args: merge22("--extbinary", "--extbinary-write-vtable-type-prof", "--convert-sample-profile-layout=flat", vtablesExt)},
	{name: "vtables: show --show-format=json", args: []string{"show", "--sample", "--show-format=json", "{vtables-edge.sample.txt}"}, compare: sameStdout},
	{name: "vtables: overlap", args: []string{"overlap", "--sample", "{vtables.sample.txt}", "{vtables-edge.sample.txt}"}, compare: sameStdout},
	{name: "vtables: overflow saturates, with a message", args: merge22("--text", "{vtables-edge.sample.txt}", "{vtables-edge.sample.txt}"), compare: sameMessages},
	{name: "vtables: a vtable twice on a line", args: merge22("--text", "{vtables-dup.sample.txt}"), compare: bothFail},
	{name: "vtables: a name with colons", args: merge22("--text", "{vtables-colon.sample.txt}"), compare: bothFail},
	{name: "vtables: no count", args: merge22("--text", "{vtables-nocount.sample.txt}"), compare: bothFail},
	{name: "vtables: after metadata", args: merge22("--text", "{vtables-after-meta.sample.txt}"), compare: bothFail},
	{name: "vtables: show", args: []string{"show", "--sample", "{vtables.sample.txt}"}, compare: sameStdout},
	{name: "vtables: show, edge cases", args: []string{"show", "--sample", "{vtables-edge.sample.txt}"}, compare: sameStdout},
	{name: "vtables: show extbinary", args: []string{"show", "--sample", vtablesExt}, compare: sameStdout},
	{name: "vtables: show --function", args: []string{"show", "--sample", "--function=main", vtablesExt}, compare: sameStdout},
	{name: "vtables: show --detailed-summary", args: []string{"show", "--sample", "--detailed-summary", "{vtables.sample.txt}"}, compare: sameStdout},
	// The split layout: --text marks the functions of the flat section
	// "!Flat"; the reader takes the mark on a top-level function.
	{name: "split layout: --text marks !Flat", args: merge22("--text", "--split-layout", "{a.sample.txt}", "{b.sample.txt}")},
	{name: "split layout: --text, probes and attributes", args: merge22("--text", "--split-layout", "{sp:profgen-preinlined.prof.txt}")},
	{name: "split layout: --text, contexts", args: merge22("--text", "--split-layout", "{sp:cs/flat.txt}")},
	{name: "split layout: extbinary back to --text --split-layout", args: merge22("--text", "--split-layout", "{sp:profgen.extbinary}")},
	{name: "!Flat read", args: merge22("--text", "{flat.sample.txt}")},
	{name: "!Flat read, to the split layout", args: merge22("--extbinary", "--split-layout", "{flat.sample.txt}")},
	{name: "!Flat read, show", args: []string{"show", "--sample", "{flat.sample.txt}"}, compare: sameStdout},
	{name: "!Flat in an inlinee", args: merge22("--text", "{flat-nested.sample.txt}"), compare: bothFail},
	{name: "!Flat with a trailing space", args: merge22("--text", "{flat-space.sample.txt}"), compare: bothFail},
	// show's summary: "Maximum internal block count", the blocks' share.
	{name: "show --detailed-summary", args: []string{"show", "--sample", "--detailed-summary", "{a.sample.txt}"}, compare: sameStdout},
	{name: "show --detailed-summary-cutoffs", args: []string{"show", "--sample", "--detailed-summary", "--detailed-summary-cutoffs=999999,1,500000", "{sp:profgen.extbinary}"}, compare: sameStdout},
}

func TestParitySampleWithLLVMProfdata22(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	pass, rows := 0, sample22Rows()
	for _, row := range rows {
		if t.Run(row.name, func(t *testing.T) { checkParity(t, row, references[0]) }) {
			pass++
		}
	}
	t.Logf("llvm-profdata-22 sample parity table: %d of %d rows equal", pass, len(rows))
}
