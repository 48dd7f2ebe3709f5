package main

import "testing"

// The parity table against llvm-profdata-22, the primary reference since
// issue 26: show and overlap print its text by default (the rows of
// parityTable compare show and overlap with llvm-profdata-19 through
// --llvm-version=19). Inputs as in parityTable; loop22*.profraw are
// clang-22 raws with the loop-entries variant bit (testdata/parity/README).
var parity22Table = []parityRow{
	// show: the summary of ProfileSummary::printSummary (blocks and total
	// count always), the value-cutoff counts after it, the detailed
	// summary's block shares, instrument_loop_entries.
	{name: "show", args: []string{"show", "{idx:vt}"}, compare: sameStdout},
	{name: "show --all-functions --counts", args: []string{"show", "--all-functions", "--counts", "{idx:irfe}"}, compare: sameStdout},
	{name: "show front-end profile", args: []string{"show", "--all-functions", "--counts", "{idx:fe19}"}, compare: sameStdout},
	{name: "show --detailed-summary", args: []string{"show", "--detailed-summary", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --detailed-summary-cutoffs", args: []string{"show", "--detailed-summary", "--detailed-summary-cutoffs=999999,500000", "{idx:irfe}"}, compare: sameStdout},
	{name: "show of a proftext --detailed-summary-cutoffs", args: []string{"show", "--detailed-summary", "--detailed-summary-cutoffs=600000,900000,999999", "--detailed-summary-cutoffs", "10", "{radix.proftext}"}, compare: sameStdout},
	{name: "show --value-cutoff --topn", args: []string{"show", "--value-cutoff=10", "--topn=2", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --list-below-cutoff", args: []string{"show", "--value-cutoff=10", "--list-below-cutoff", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --showcs --detailed-summary", args: []string{"show", "--showcs", "--all-functions", "--counts", "--detailed-summary", "{idx:cs}"}, compare: sameStdout},
	{name: "show --ic-targets --memop-sizes --detailed-summary", args: []string{"show", "--all-functions", "--ic-targets", "--memop-sizes", "--show-vtables", "--detailed-summary", "{idx:vt}"}, compare: sameStdout},
	{name: "show pseudo counts", args: []string{"show", "--all-functions", "--counts", "--topn=2", "{idx:pseudo}"}, compare: sameStdout},
	{name: "show raw --detailed-summary", args: []string{"show", "--detailed-summary", "--topn=2", "{raw:fe19}"}, compare: sameStdout},
	{name: "show raw --profile-version of a temporal raw", args: []string{"show", "--profile-version", "{temporal1.profraw}"}, compare: sameStdout},

	// --topn sorts every function, ties in reading order; --hot-func-list
	// (LLVM 21) lists instrumentation profiles' hot functions too.
	{name: "show --topn", args: []string{"show", "--topn=3", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --topn with ties", args: []string{"show", "--topn=4", "{idx:ties}"}, compare: sameStdout},
	{name: "show --topn of a proftext with ties", args: []string{"show", "--topn=2", "{ties.proftext}"}, compare: sameStdout},
	{name: "show --hot-func-list", args: []string{"show", "--hot-func-list", "{idx:irfe}"}, compare: sameStdout},
	{name: "show --hot-func-list --topn with ties", args: []string{"show", "--hot-func-list", "--topn=2", "--detailed-summary", "{ties.proftext}"}, compare: sameStdout},

	// The loop-entries variant (raw bit 55, :instrument_loop_entries).
	{name: "show loop-entries raw", args: []string{"show", "--all-functions", "--counts", "{loop22.profraw}"}, compare: sameStdout},
	{name: "show entry-first loop-entries raw", args: []string{"show", "--detailed-summary", "{loop22e.profraw}"}, compare: sameStdout},
	{name: "show loop-entries proftext", args: []string{"show", "--all-functions", "{loop22e.proftext}"}, compare: sameStdout},
	{name: "show --text of a loop-entries raw", args: []string{"show", "--text", "--all-functions", "{loop22.profraw}"}, compare: sameStdout},
	{name: "merge --text of a loop-entries raw", args: []string{"merge", "--text", "-o", "{out}", "{loop22e.profraw}"}},
	{name: "merge --text of a loop-entries proftext", args: []string{"merge", "--text", "-o", "{out}", "{loop22e.proftext}"}},
	{name: "merge --text of loop-entries and plain raws", args: []string{"merge", "--text", "-o", "{out}", "{plain22.profraw}", "{loop22.profraw}"}},

	// Found running LLVM 22's tests (tools/llvmsuite): refused by 19 too.
	{name: "proftext: value without a symbol name refused", args: []string{"merge", "--text", "-o", "{out}", "{empty-symbol.proftext}"}, compare: bothFail},

	// Sample profiles: the same summary, "Maximum internal block count: 0".
	{name: "show --sample --detailed-summary", args: []string{"show", "--sample", "--detailed-summary", "{sp:profgen.extbinary}"}, compare: sameStdout},
	{name: "show --sample --detailed-summary gcc profile", args: []string{"show", "--sample", "--detailed-summary", "{sp:gcc.afdo}"}, compare: sameStdout},
	{name: "show --sample CS --detailed-summary --topn", args: []string{"show", "--sample", "--detailed-summary", "--topn=3", "{sp:cs/flat.extbinary}"}, compare: sameStdout},
	{name: "show --sample --show-format=json --detailed-summary", args: []string{"show", "--sample", "--show-format=json", "--detailed-summary", "{sp:cs/flat.txt}"}, compare: sameStdout},

	// overlap: "information" (LLVM 19: "infomation").
	{name: "overlap proftexts", args: []string{"overlap", "{overlap-base.proftext}", "{overlap-test.proftext}"}, compare: sameStdout},
	{name: "overlap raws: vtables", args: []string{"overlap", "--value-cutoff=0", "{raw:vt1}", "{raw:vt2}"}, compare: sameStdout},
	{name: "overlap --sample text", args: []string{"overlap", "--sample", "{overlap-base.sample.txt}", "{overlap-test.sample.txt}"}, compare: sameStdout},
	{name: "overlap --sample extbinary and text", args: []string{"overlap", "--sample", "--value-cutoff=0", "{sp:profgen.extbinary}", "{sp:profgen.txt}"}, compare: sameStdout},
}

func TestParityWithLLVMProfdata22(t *testing.T) {
	needTool(t, "llvm-profdata-22")
	needTool(t, "llvm-profdata-19") // makes the {idx:...} inputs
	pass := 0
	for _, row := range parity22Table {
		row.tool = "llvm-profdata-22"
		if t.Run(row.name, func(t *testing.T) { checkParity(t, row) }) {
			pass++
		}
	}
	t.Logf("parity table against llvm-profdata-22: %d of %d rows pass", pass, len(parity22Table))
}
