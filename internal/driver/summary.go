package driver

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	"github.com/profgen/profgen/internal/perfscript"
)

// Summary is the result of Aggregate: the counters and what happened to
// every sample.
type Summary struct {
	Counters *aggregate.Counters

	Samples        uint64 // samples read (repeat counts included)
	NoLBR          uint64 // samples without a branch stack
	NoMapping      uint64 // samples of a process with no known mapping of the binary
	Filtered       uint64 // samples of processes not asked for with --pid
	BadBranchLines uint64 // samples whose branch stack had a malformed entry (cut there)
	WithCallChain  uint64 // LBR samples that also carry a call chain (perf -g -b)

	Agg   aggregate.Stats
	Scan  perfscript.Stats
	Table addrspace.Stats
}

// Print writes the summary, one line per fact worth knowing.
func (s *Summary) Print(w io.Writer, binPath string) {
	if w == nil {
		return
	}
	name := filepath.Base(binPath)
	dropped := []string{}
	add := func(n uint64, why string) {
		if n > 0 {
			dropped = append(dropped, fmt.Sprintf("%d %s", n, why))
		}
	}
	add(s.NoMapping, "from processes with no mapping of "+name)
	add(s.Filtered, "from processes not selected by --pid")
	add(s.Agg.NoBranches, "with every branch outside "+name)
	add(s.NoLBR, "without a branch stack")
	fmt.Fprintf(w, "profgen: %d samples, %d used", s.Samples, s.Agg.Samples)
	if len(dropped) > 0 {
		fmt.Fprintf(w, "; dropped: %s", strings.Join(dropped, ", "))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "profgen: %d branches used (%d with an external end), %d external-to-external dropped, %d fall-through ranges dropped as invalid\n",
		s.Agg.Entries, s.Agg.ExternalEnds, s.Agg.DroppedExtExt, s.Agg.InvalidRanges)
	s.printWarnings(w, name)
}

func (s *Summary) printWarnings(w io.Writer, name string) {
	if s.WithCallChain > 0 {
		fmt.Fprintf(w, "profgen: warning: %d LBR samples carry a call chain; only their branch stacks are used (llvm-profgen --ignore-stack-samples)\n", s.WithCallChain)
	}
	if s.BadBranchLines > 0 {
		fmt.Fprintf(w, "profgen: warning: %d samples had a malformed branch entry; their stack was cut there\n", s.BadBranchLines)
	}
	if s.Scan.SkippedLines > 0 || s.Scan.SkippedRecords > 0 {
		fmt.Fprintf(w, "profgen: warning: skipped %d unrecognized lines and %d other PERF_RECORD events\n", s.Scan.SkippedLines, s.Scan.SkippedRecords)
	}
	if s.Table.Mappings == 0 && s.NoMapping > 0 {
		fmt.Fprintf(w, "profgen: warning: no mmap of %s in the input: print it with perf script --show-mmap-events (the binary is matched by its base name)\n", name)
	}
	if s.Table.NoMmapDefaulted {
		fmt.Fprintf(w, "profgen: warning: no mmap of %s seen; samples without a PID use its preferred address\n", name)
	}
	if s.Table.Reloads > 0 && s.Table.NoPIDSamples > 0 {
		fmt.Fprintf(w, "profgen: warning: %s was loaded at %d different bases by different processes but samples carry no PID; the last base was used (print the pid field: perf script -F pid,ip,brstack --show-mmap-events --show-task-events)\n", name, s.Table.Reloads+1)
	}
}
