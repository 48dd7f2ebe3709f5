package perfdata

import (
	"github.com/profgen/profgen/internal/perfdatafile"
)

// Content says what the samples of a perf.data file carry.
type Content struct {
	Callchain   bool // recorded with -g / --call-graph
	BranchStack bool // recorded with -b / -j (LBR, BRBE)
}

// ReadContent reads the event attributes of a perf.data file (file or pipe
// mode) and reports whether any event samples call chains or branch
// stacks.
func ReadContent(path string) (Content, error) {
	r, err := perfdatafile.Open(path)
	if err != nil {
		return Content{}, err
	}
	defer r.Close()
	return contentOf(r)
}

// contentOf reads the attributes; in pipe mode they come as the first
// records, read up to the first event.
func contentOf(r *perfdatafile.Reader) (Content, error) {
	if r.Pipe {
		r.Next()
		if err := r.Err(); err != nil {
			return Content{}, err
		}
	}
	var c Content
	for _, a := range r.Attrs {
		c.Callchain = c.Callchain || a.SampleType&perfdatafile.SampleCallchain != 0
		c.BranchStack = c.BranchStack || a.SampleType&perfdatafile.SampleBranchStack != 0
	}
	return c, nil
}

// ScriptArgs returns the perf script arguments that print what profgen
// reads from a file with content c: PIDs, task and mmap events, and either
// branch stacks (LBR; the call chain too, for hybrid samples) or call
// chains with the DSO of each frame, the time, period and event.
func ScriptArgs(c Content) []string {
	fields := "pid,time,period,event,ip,sym,dso"
	switch {
	case c.BranchStack && c.Callchain:
		fields = "pid,ip,dso,brstack" // call-chain frames are DSO-relative: the DSO places them
	case c.BranchStack:
		fields = "pid,ip,brstack"
	}
	return []string{"-F", fields, "--show-mmap-events", "--show-task-events"}
}
