package driver

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/symbolize"
)

// llvm-profgen 19's warnings about LBR input, printed with its text (lines
// starting "warning:"): malformed branch entries by line, and the shares of
// samples in ranges that do not fit the binary.

// showMmap prints a load event as llvm-profgen's --show-mmap-events does.
func (o LLVMOptions) showMmap(w io.Writer, rec *record.Record) {
	if o.ShowMmapEvents && rec.Kind == record.KindMmap {
		fmt.Fprintf(w, "Mmap: Binary %s loaded at 0x%x: \n", rec.Mmap.Path, rec.Mmap.Addr)
	}
}

// printSkippedLines names each line of LBR input that is no record: in
// branch-stack input, llvm-profgen 19 reads every such line as a sample
// and warns that its address is invalid.
func printSkippedLines(w io.Writer, scan record.Stats) {
	for _, l := range scan.Skipped {
		fmt.Fprintf(w, "warning: Invalid address in LBR record at line %d: %s\n", l.Line, l.Text)
	}
	if n := scan.SkippedLines - len(scan.Skipped); n > 0 {
		fmt.Fprintf(w, "profgen: warning: %d more lines that are no record\n", n)
	}
}

// printBadLines names each line with a malformed branch entry (the first
// maxBadLines of them).
func printBadLines(w io.Writer, s *lbrSummary) {
	for _, b := range s.BadLines {
		fmt.Fprintf(w, "warning: Invalid address in LBR record at line %d: %s\n", b.line, b.text)
	}
	if n := s.BadBranchLines - uint64(len(s.BadLines)); n > 0 {
		fmt.Fprintf(w, "profgen: warning: %d more lines with an invalid address in their LBR record\n", n)
	}
}

// rangeCheck counts llvm-profgen's range warnings (warnInvalidRange).
type rangeCheck struct {
	total, notBoundary, noFunc, recovered, crossFunc, bogus uint64
	details                                                 []rangeDetail
}

type rangeDetail struct {
	start, end uint64
	msg        string
}

const (
	msgNotBoundary = "Range is not on instruction boundary, likely due to profile and binary mismatch."
	msgDangling    = "Range does not belong to any functions, likely from PLT, .init or .fini section."
	msgCrossFunc   = "Fall through range should not cross function boundaries, likely due to profile and binary mismatch."
	msgBogus       = "Range start is after or too far from range end."
)

// funcAt finds the function range holding an address, nil for none.
type funcAt func(addr uint64) *symbolize.FuncRange

// checkRanges classifies every pair of consecutive branches of the input
// (c.Ranges used, c.Unused not), as llvm-profgen does before generating.
func checkRanges(c *aggregate.Counters, pairs uint64, bin Binary, funcs funcAt, leadingIP bool) *rangeCheck {
	rc := &rangeCheck{total: pairs}
	for _, m := range []map[aggregate.Range]uint64{c.Ranges, c.Unused} {
		for r, n := range m {
			rc.check(r, n, bin, funcs, leadingIP)
		}
	}
	slices.SortFunc(rc.details, func(a, b rangeDetail) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.end, b.end), cmp.Compare(a.msg, b.msg))
	})
	return rc
}

func (rc *rangeCheck) check(r aggregate.Range, n uint64, bin Binary, funcs funcAt, leadingIP bool) {
	startCode, endCode := bin.IsCode(r.Start), bin.IsCode(r.End)
	if !startCode && !endCode {
		return
	}
	if !leadingIP && (!startCode || !isTransfer(bin, r.End)) {
		rc.add(&rc.notBoundary, n, r, msgNotBoundary)
	}
	fr := funcs(r.Start)
	if fr == nil {
		rc.add(&rc.noFunc, n, r, msgDangling)
		return
	}
	if fr.Func.FromSymtab {
		rc.recovered += n
	}
	if r.End >= fr.End {
		rc.add(&rc.crossFunc, n, r, msgCrossFunc)
	}
	if startCode && endCode && (r.Start > r.End || bin.CrossesUncondBranch(r.Start, r.End)) {
		rc.add(&rc.bogus, n, r, msgBogus)
	}
}

func (rc *rangeCheck) add(counter *uint64, n uint64, r aggregate.Range, msg string) {
	*counter += n
	rc.details = append(rc.details, rangeDetail{r.Start, r.End, msg})
}

func isTransfer(bin Binary, addr uint64) bool {
	in, ok := bin.Inst(addr)
	return ok && in.Kind != insn.Other
}

// print writes the warnings: each range with detailed, then the shares.
func (rc *rangeCheck) print(w io.Writer, detailed bool) {
	if rc.total == 0 {
		fmt.Fprintln(w, "warning: No samples in perf script!")
		return
	}
	if detailed {
		for _, d := range rc.details {
			fmt.Fprintf(w, "warning: [%8x,%8x]: %s\n", d.start, d.end, d.msg)
		}
	}
	warnShare(w, rc.notBoundary, rc.total, "of samples are from ranges that are not on instruction boundary.")
	warnShare(w, rc.noFunc, rc.total, "of samples are from ranges that do not belong to any functions.")
	warnShare(w, rc.recovered, rc.total, "of samples are from ranges that belong to functions recovered from symbol table.")
	warnShare(w, rc.crossFunc, rc.total, "of samples are from ranges that do cross function boundaries.")
	warnShare(w, rc.bogus, rc.total, "of samples are from ranges that have range start after or too far from range end acrossing the unconditinal jmp.")
}

// warnShare is llvm-profgen's emitWarningSummary: "P%(n/total) msg".
func warnShare(w io.Writer, n, total uint64, msg string) {
	if n == 0 || total == 0 {
		return
	}
	fmt.Fprintf(w, "warning: %.2f%%(%d/%d) %s\n", float64(n)*100/float64(total), n, total, msg)
}
