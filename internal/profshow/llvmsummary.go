package profshow

// The profile summary llvm-profdata show prints for instrumentation and
// sample profiles (LLVM's ProfileSummary): since LLVM 21 both kinds go
// through ProfileSummary::printSummary and printDetailedSummary; LLVM 19
// printed each kind its own way.

import (
	"fmt"
	"io"
	"strconv"
)

// LLVM releases whose show text profgen writes.
const (
	LLVM19 = 19
	LLVM22 = 22 // the default
)

// is19 tells whether llvm-profdata-19's text is asked for.
func (o LLVMOptions) is19() bool { return o.Version == LLVM19 }

// llvmSummary holds the numbers of LLVM's ProfileSummary that show prints.
type llvmSummary struct {
	functions, maxFunction, maxInternal, blocks, total uint64
}

// write is ProfileSummary::printSummary (LLVM 21 and later).
func (s llvmSummary) write(w io.Writer) {
	fmt.Fprintf(w, "Total functions: %d\nMaximum function count: %d\nMaximum internal block count: %d\nTotal number of blocks: %d\nTotal count: %d\n",
		s.functions, s.maxFunction, s.maxInternal, s.blocks, s.total)
}

// detailedEntry is one line of a detailed summary: at Cutoff (parts per
// million of the total count), the blocks with a count of at least
// minCount.
type detailedEntry struct {
	cutoff, minCount, blocks uint64
}

// writeDetailed writes the detailed summary's entries; blocks is the
// profile's number of blocks, which LLVM 22 gives each entry a share of.
func writeDetailed(w io.Writer, entries []detailedEntry, blocks uint64, v19 bool) {
	fmt.Fprintln(w, "Detailed summary:")
	for _, e := range entries {
		if v19 {
			fmt.Fprintf(w, "%d blocks with count >= %d account for %s percentage of the total counts.\n",
				e.blocks, e.minCount, formatG6(float32(e.cutoff)/1e6*100))
			continue
		}
		var share float32 // LLVM computes both in float
		if blocks != 0 {
			share = 100 * float32(e.blocks) / float32(blocks)
		}
		fmt.Fprintf(w, "%d blocks (%s%%) with count >= %d account for %s%% of the total counts.\n",
			e.blocks, strconv.FormatFloat(float64(share), 'f', 2, 64), e.minCount, formatG6(100*float32(e.cutoff)/1e6))
	}
}
