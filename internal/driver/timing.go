package driver

import (
	"fmt"
	"io"
	"time"
)

// phaseTimer measures the phases of a run for --time-profgen and prints
// them in the layout of LLVM's timer report (wall time only).
type phaseTimer struct {
	on     bool
	names  []string
	times  []time.Duration
	cur    string
	start  time.Time
	report io.Writer
}

func newPhaseTimer(p *plan) *phaseTimer {
	return &phaseTimer{on: p.LLVM.TimePhases, report: p.Stderr}
}

// phase ends the current phase and starts the named one ("" ends it).
func (t *phaseTimer) phase(name string) {
	if !t.on {
		return
	}
	now := time.Now()
	if t.cur != "" {
		t.names = append(t.names, t.cur)
		t.times = append(t.times, now.Sub(t.start))
	}
	t.cur, t.start = name, now
}

// print ends the current phase and writes the report.
func (t *phaseTimer) print() {
	if !t.on {
		return
	}
	t.phase("")
	var total time.Duration
	for _, d := range t.times {
		total += d
	}
	w := t.report
	rule := "===" + dashes(73) + "==="
	fmt.Fprintf(w, "%s\n%*s\n%s\n", rule, 40+len("profgen")/2, "profgen", rule)
	fmt.Fprintf(w, "  Total Execution Time: %.4f seconds (%.4f wall clock)\n\n", total.Seconds(), total.Seconds())
	fmt.Fprintf(w, "   ---Wall Time---  --- Name ---\n")
	for i, d := range t.times {
		fmt.Fprintf(w, "   %.4f (%5.1f%%)  %s\n", d.Seconds(), share(d, total), t.names[i])
	}
	fmt.Fprintf(w, "   %.4f (100.0%%)  Total\n\n", total.Seconds())
}

func share(d, total time.Duration) float64 {
	if total == 0 {
		return 0
	}
	return 100 * d.Seconds() / total.Seconds()
}

func dashes(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '-'
	}
	return string(b)
}
