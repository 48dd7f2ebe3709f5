// Package summary prints a short human summary of a sample profile: the
// hottest top-level functions with their share of all samples, demangled.
//
// In: a sampleprof.Profile. Out: text for a terminal.
package summary

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ianlancetaylor/demangle"

	"github.com/profgen/profgen/internal/sampleprof"
)

// Write prints the n hottest functions of p by total samples.
func Write(w io.Writer, p *sampleprof.Profile, n int) error {
	fs := p.SortedFunctions()
	var total uint64
	for _, f := range fs {
		total += f.TotalSamples
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "share\tsamples\thead\t function\n")
	for i, f := range fs {
		if i == n {
			break
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t %s\n", percent(f.TotalSamples, total), f.TotalSamples, f.HeadSamples, demangle.Filter(f.Name))
	}
	fmt.Fprintf(tw, "\t%d\t\t %d functions\n", total, len(fs))
	return tw.Flush()
}

func percent(part, whole uint64) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}
