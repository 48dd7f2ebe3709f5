package profshow

import (
	"fmt"
	"io"
	"strconv"

	"github.com/profgen/profgen/internal/instrprof"
)

// siteStats are llvm-profdata show's value-site statistics of one kind.
type siteStats struct {
	sites, withValues, values int
	histogram                 []int // sites by number of values, from 1
}

// sites prints the values of every site as llvm's traverseAllValueSites
// does and counts them.
func (st *siteStats) traverse(w io.Writer, sites [][]instrprof.Value, name func(uint64) string) {
	st.sites += len(sites)
	for i, vs := range sites {
		if len(vs) == 0 {
			continue
		}
		st.values += len(vs)
		st.withValues++
		for len(st.histogram) < len(vs) {
			st.histogram = append(st.histogram, 0)
		}
		st.histogram[len(vs)-1]++
		var sum uint64
		for _, v := range vs {
			sum += v.Count
		}
		sum = max(sum, 1)
		for _, v := range vs {
			fmt.Fprintf(w, "\t[ %2d, %s, %10d ] (%.2f%%)\n", i, name(v.Value), int64(v.Count), float64(v.Count)*100/float64(sum))
		}
	}
}

func (st *siteStats) write(w io.Writer) {
	fmt.Fprintf(w, "  Total number of sites: %d\n  Total number of sites with values: %d\n  Total number of profiled values: %d\n",
		st.sites, st.withValues, st.values)
	fmt.Fprint(w, "  Value sites histogram:\n\tNumTargets, SiteCount\n")
	for i, n := range st.histogram {
		if n > 0 {
			fmt.Fprintf(w, "\t%d, %d\n", i+1, n)
		}
	}
}

// formatG6 formats f as C's "%0.6g".
func formatG6(f float32) string {
	return strconv.FormatFloat(float64(f), 'g', 6, 64)
}
