package boltprof

import "github.com/profgen/profgen/internal/record"

// Trace is perf2bolt's unit of an LBR profile: a taken branch (Branch to
// From) and the fall-through after it, From to To, To being the source of
// the next newer branch; To is BranchOnly for the newest entry of a stack.
// Addresses are the binary's.
type Trace struct{ Branch, From, To uint64 }

// BranchOnly is the To of a trace without a fall-through (perf2bolt's
// BR_ONLY).
const BranchOnly = ^uint64(0)

// TraceCount is how often a trace was seen and how often its branch was
// mispredicted then.
type TraceCount struct{ Taken, Mispred uint64 }

// kernelBase: entries with an end at or above it are interrupts, dropped
// as perf2bolt's --ignore-interrupt-lbr (on by default) drops them.
const kernelBase = 0xffff800000000000

// Traces counts the traces of branch stacks (by pointer: a trace seen
// again is one map lookup).
type Traces map[Trace]*TraceCount

// AddStack counts the traces of one branch stack (runtime addresses,
// newest first) seen n times; delta turns the process's addresses into
// the binary's. mispred is the sample's Mispredicted.
func (ts Traces) AddStack(branches []record.Branch, mispred []bool, delta, n uint64) {
	next := BranchOnly // the source of the newer branch
	for i, b := range branches {
		if b.From >= kernelBase || b.To >= kernelBase {
			continue
		}
		t := Trace{b.From + delta, b.To + delta, next}
		next = t.Branch
		c := ts.at(t)
		c.Taken += n
		if i < len(mispred) && mispred[i] {
			c.Mispred += n
		}
	}
}

// at returns the counts of t, made the first time.
func (ts Traces) at(t Trace) *TraceCount {
	c := ts[t]
	if c == nil {
		c = &TraceCount{}
		ts[t] = c
	}
	return c
}

// Add adds the counts of o (a worker's traces, in a scan by chunks).
func (ts Traces) Add(o Traces) {
	for t, c := range o {
		s := ts.at(t)
		*s = s.plus(*c)
	}
}

// plus is the sum of two counts.
func (c TraceCount) plus(o TraceCount) TraceCount {
	return TraceCount{Taken: c.Taken + o.Taken, Mispred: c.Mispred + o.Mispred}
}
