package profshow

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/profgen/profgen/internal/sampleprof"
)

// hotFuncCutoff is the detailed-summary cutoff whose minimum count makes a
// function hot in llvm-profdata show --hot-func-list (99%).
const hotFuncCutoff = 990000

// writeHotFunctions is llvm-profdata's showHotFunctionList: the functions
// whose largest body count reaches the 99% threshold, by total samples
// (ties in the order of LLVM's reader's map, as its multimap keeps them),
// topN of them if set. The total wraps around as LLVM's uint64_t does.
func writeHotFunctions(w io.Writer, p *sampleprof.Profile, topN int) {
	var threshold uint64
	for _, e := range sampleprof.ComputeSummary(p).Detailed {
		if e.Cutoff == hotFuncCutoff {
			threshold = e.MinCount
			break
		}
	}
	var total, hotTotal uint64
	var hot []*sampleprof.FunctionSamples
	for _, f := range p.ReaderOrder() {
		total += f.TotalSamples
		if maxCount(f) >= threshold {
			hot = append(hot, f)
			hotTotal += f.TotalSamples
		}
	}
	fmt.Fprintf(w, "%d out of %d functions with profile (%.2f%%) are considered hot functions (max sample >= %d).\n",
		len(hot), len(p.Functions), float64(len(hot))/float64(max(len(p.Functions), 1))*100, threshold)
	fmt.Fprintf(w, "%d out of %d profile counts (%.2f%%) are from hot functions.\n", hotTotal, total, share(hotTotal, total))
	fmt.Fprintln(w, columns("Total sample (%)", "Max sample", "Entry sample", "Function name"))
	sort.SliceStable(hot, func(i, j int) bool { return hot[i].TotalSamples > hot[j].TotalSamples })
	for i, f := range hot {
		if topN > 0 && i == topN {
			break
		}
		fmt.Fprintln(w, columns(fmt.Sprintf("%d (%.2f%%)", f.TotalSamples, percent(f.TotalSamples, total)),
			fmt.Sprint(maxCount(f)), fmt.Sprint(f.HeadSamplesEstimate(p.CS)), profileName(f)))
	}
}

// share is n's percentage of total as LLVM computes the hot functions'
// share: the division first (percent multiplies first: other roundings).
func share(n, total uint64) float64 {
	if total == 0 {
		return 0
	}
	return float64(n) / float64(total) * 100
}

// columns lays cells out at LLVM's column offsets 0, 24, 42, 58, each
// after at least one space (formatted_raw_ostream::PadToColumn).
func columns(cells ...string) string {
	var b strings.Builder
	for i, c := range cells {
		col := [...]int{0, 24, 42, 58}[i]
		b.WriteString(strings.Repeat(" ", max(col-b.Len(), 1)))
		b.WriteString(c)
	}
	return b.String()
}
