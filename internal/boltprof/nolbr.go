package boltprof

import (
	"bufio"
	"fmt"
	"io"
	"slices"
)

// BasicSamples counts IP samples (no branch stack) at the binary's
// addresses, with the names of their events, for perf2bolt's no-LBR
// profile (--ba).
type BasicSamples struct {
	Counts map[uint64]uint64
	Events map[string]bool
}

// NewBasicSamples returns empty counts.
func NewBasicSamples() *BasicSamples {
	return &BasicSamples{Counts: map[uint64]uint64{}, Events: map[string]bool{}}
}

// Add counts a sample at addr (the binary's address) of event (perf
// script's event field without its colon) seen n times.
func (s *BasicSamples) Add(addr uint64, event string, n uint64) {
	if s.AddIP(addr, n) {
		s.Events[event] = true
	}
}

// AddIP counts a sample at addr seen n times, its event named apart (in
// Events); it reports whether the sample counts.
func (s *BasicSamples) AddIP(addr, n uint64) bool {
	if addr == 0 {
		return false // perf2bolt skips a zero IP
	}
	s.Counts[addr] += n
	return true
}

// WriteNoLBR writes the no-LBR fdata perf2bolt --ba writes: the header
// `no_lbr` and the event names as perf script prints them (with their
// colon), then `1 name off count` per sampled address inside a function.
// It returns the samples outside every function (perf2bolt's "out of
// range samples").
func WriteNoLBR(w io.Writer, funcs Funcs, s *BasicSamples) (outOfRange uint64, err error) {
	bw := bufio.NewWriter(w)
	bw.WriteString("no_lbr")
	events := make([]string, 0, len(s.Events))
	for e := range s.Events {
		events = append(events, e)
	}
	slices.Sort(events)
	for _, e := range events {
		fmt.Fprintf(bw, " %s:", e)
	}
	bw.WriteByte('\n')
	counts := map[Loc]uint64{}
	for addr, n := range s.Counts {
		f := funcs.Containing(addr)
		if f == nil {
			outOfRange += n
			continue
		}
		counts[Loc{f.Name, addr - f.Addr}] += n
	}
	locs := make([]Loc, 0, len(counts))
	for l := range counts {
		locs = append(locs, l)
	}
	slices.SortFunc(locs, compareLoc)
	for _, l := range locs {
		fmt.Fprintf(bw, "1 %s %x %d\n", escapeName(l.Name), l.Off, counts[l])
	}
	return outOfRange, bw.Flush()
}
