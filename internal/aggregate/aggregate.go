// Package aggregate turns samples into counts, side by side for the two
// kinds of stack a sample can carry (a hybrid `perf record -b -g` sample
// carries both).
//
// Branch stacks (Aggregator), as llvm-profgen does for context-insensitive
// profiles. In: the LBR branch stacks of samples (runtime addresses, newest
// branch first), each with the delta that maps its process's runtime
// addresses to the binary's canonical ones (from addrspace) and a repeat
// count. Out: Counters: inclusive fall-through address ranges and taken
// branches with their counts, in canonical addresses; ExternalAddr stands
// for any address outside the binary's code.
//
// Call stacks (Stacks). In: perfscript samples with a call chain or an IP,
// and the addrspace table for addresses perf printed as process addresses.
// Out: StackCounts, one entry per distinct stack of canonical frames with
// its sample count and summed period.
package aggregate

import (
	"encoding/binary"

	"github.com/profgen/profgen/internal/perfscript"
)

// ExternalAddr stands for an address outside the binary's code.
const ExternalAddr = 1

// Code answers what the aggregation needs to know about the binary's code.
// internal/binary's *File implements it.
type Code interface {
	// IsCode reports whether addr starts a decoded instruction.
	IsCode(addr uint64) bool
	// CrossesUncondBranch reports whether an unconditional branch, call or
	// return starts in [start, end).
	CrossesUncondBranch(start, end uint64) bool
}

// Range is an inclusive address range executed without a taken branch:
// End is the address of its last instruction.
type Range struct{ Start, End uint64 }

// Branch is a taken branch.
type Branch struct{ Source, Target uint64 }

// Counters are the aggregated counts.
type Counters struct {
	Ranges   map[Range]uint64
	Branches map[Branch]uint64
}

// NewCounters returns empty counters.
func NewCounters() *Counters {
	return &Counters{Ranges: map[Range]uint64{}, Branches: map[Branch]uint64{}}
}

// Add adds o's counts to c.
func (c *Counters) Add(o *Counters) {
	for k, v := range o.Ranges {
		c.Ranges[k] += v
	}
	for k, v := range o.Branches {
		c.Branches[k] += v
	}
}

// Stats counts what happened to the samples given to an Aggregator.
type Stats struct {
	Samples       uint64 // samples with at least one branch in the binary (counts repeated)
	NoBranches    uint64 // samples whose every branch is external to the binary, or with no brstack
	Entries       uint64 // brstack entries kept
	ExternalEnds  uint64 // kept entries with one external end
	DroppedExtExt uint64 // entries with both ends external (dropped)
	InvalidRanges uint64 // fall-through ranges dropped: start after end, or crossing an unconditional branch
}

// maxPendingBytes bounds the table of distinct samples kept before they
// are counted, so memory stays independent of the input size.
const maxPendingBytes = 8 << 20

// Aggregator accumulates samples. Identical samples (same canonical branch
// stack) are counted once with their repeat count summed.
type Aggregator struct {
	code    Code
	c       *Counters
	pending map[string]int // distinct sample -> index in counts
	counts  []uint64
	bytes   int // size of the pending keys
	limit   int // flush when the pending keys would exceed it
	key     []byte
	entries []entry
	Stats   Stats
}

type entry struct {
	src, dst uint64
	srcCode  bool
}

// New returns an Aggregator over the binary's code.
func New(code Code) *Aggregator {
	return &Aggregator{code: code, c: NewCounters(), pending: map[string]int{}, limit: maxPendingBytes}
}

// Add records one sample: its branch stack in runtime addresses, the delta
// to canonical addresses, and how many times it was seen.
func (a *Aggregator) Add(branches []perfscript.Branch, delta, count uint64) {
	key := a.key[:0]
	for _, b := range branches {
		key = binary.LittleEndian.AppendUint64(key, b.From+delta)
		key = binary.LittleEndian.AppendUint64(key, b.To+delta)
	}
	a.key = key
	if i, ok := a.pending[string(key)]; ok {
		a.counts[i] += count
		return
	}
	if a.bytes+len(key) > a.limit {
		a.flush()
	}
	a.bytes += len(key)
	a.pending[string(key)] = len(a.counts)
	a.counts = append(a.counts, count)
}

func (a *Aggregator) flush() {
	for k, i := range a.pending {
		a.count(k, a.counts[i])
	}
	clear(a.pending)
	a.counts = a.counts[:0]
	a.bytes = 0
}

// Counters counts the pending samples and returns the counters.
func (a *Aggregator) Counters() *Counters {
	a.flush()
	return a.c
}

// count adds the counters of one distinct sample (key: canonical from/to
// pairs, newest first) seen n times.
func (a *Aggregator) count(key string, n uint64) {
	es := a.canonicalEntries(key, n)
	if len(es) == 0 {
		a.Stats.NoBranches += n
		return
	}
	a.Stats.Samples += n
	a.Stats.Entries += uint64(len(es)) * n
	var end uint64
	endCode := false // the leading IP is ignored: the newest range has no end
	for _, e := range es {
		if e.dst != ExternalAddr {
			a.c.Branches[Branch{e.src, e.dst}] += n
			if endCode {
				a.countRange(e.dst, end, n)
			}
		}
		end, endCode = e.src, e.srcCode
	}
}

func (a *Aggregator) countRange(start, end, n uint64) {
	if start > end || a.code.CrossesUncondBranch(start, end) {
		a.Stats.InvalidRanges += n
		return
	}
	a.c.Ranges[Range{start, end}] += n
}

// canonicalEntries decodes a key into entries, with addresses outside the
// code replaced by ExternalAddr and external-to-external entries dropped.
func (a *Aggregator) canonicalEntries(key string, n uint64) []entry {
	es := a.entries[:0]
	for len(key) >= 16 {
		src, dst := le64(key), le64(key[8:])
		key = key[16:]
		srcCode, dstCode := a.code.IsCode(src), a.code.IsCode(dst)
		if !srcCode && !dstCode {
			a.Stats.DroppedExtExt += n
			continue
		}
		if !srcCode {
			src = ExternalAddr
		}
		if !dstCode {
			dst = ExternalAddr
		}
		if !srcCode || !dstCode {
			a.Stats.ExternalEnds += n
		}
		es = append(es, entry{src: src, dst: dst, srcCode: srcCode})
	}
	a.entries = es
	return es
}

// le64 reads a little-endian uint64 from the start of s.
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
