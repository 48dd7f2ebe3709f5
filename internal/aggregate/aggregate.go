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
	"unsafe"

	"github.com/profgen/profgen/internal/leb128"
	"github.com/profgen/profgen/internal/record"
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

// Counters are the aggregated counts.
type Counters struct {
	Ranges   map[Range]uint64
	Branches map[record.Branch]uint64
	// Unused are the (start, end) pairs of consecutive branches that gave
	// no range: an end outside the code, or start after end, or crossing
	// an unconditional branch (pairs with both ends outside excluded).
	// llvm-profgen's range warnings look at them beside Ranges.
	Unused map[Range]uint64
}

// NewCounters returns empty counters.
func NewCounters() *Counters {
	return &Counters{Ranges: map[Range]uint64{}, Branches: map[record.Branch]uint64{}, Unused: map[Range]uint64{}}
}

// Add adds o's counts to c.
func (c *Counters) Add(o *Counters) {
	for k, v := range o.Ranges {
		c.Ranges[k] += v
	}
	for k, v := range o.Branches {
		c.Branches[k] += v
	}
	for k, v := range o.Unused {
		if c.Unused == nil {
			c.Unused = map[Range]uint64{}
		}
		c.Unused[k] += v
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
	Pairs         uint64 // pairs of consecutive branches: candidate ranges, used or not
}

// Options are llvm-profgen 19's LBR reader flags.
type Options struct {
	// LeadingIPOnly (--leading-ip-only): a sample is its IP alone, given
	// as a one-entry stack From = To = IP; it counts the range [IP, IP].
	// A sample without IP has its newest entry taken the same way.
	LeadingIPOnly bool
	// SamplePeriod (--sample-period, 0 = not given): a sample counts
	// period times its repeat count, divided by its number of branches
	// (those not both outside the code) less one unless LeadingIPOnly.
	SamplePeriod uint64
}

// maxPendingBytes bounds the table of distinct samples kept before they
// are counted, so memory stays independent of the input size.
const maxPendingBytes = 2 << 20

// Aggregator accumulates samples. Identical samples (same canonical branch
// stack) are counted once with their repeat count summed.
type Aggregator struct {
	code    Code
	c       *Counters
	pending map[string]int // distinct sample -> index in counts; keys point into arena
	counts  []uint64
	// arena holds the bytes of the pending keys, reused after each flush:
	// the table makes no garbage, and its memory is the fixed limit.
	arena   []byte
	limit   int // flush when the pending keys would exceed it
	key     []byte
	entries []entry
	// ranges and branches hold the latest increments of c's maps.
	ranges   increments[Range]
	branches increments[record.Branch]
	opts     Options
	Stats    Stats
}

type entry struct {
	src, dst uint64
	srcCode  bool
}

// New returns an Aggregator over the binary's code.
func New(code Code) *Aggregator {
	return NewWithOptions(code, Options{})
}

// NewWithOptions returns an Aggregator with llvm-profgen's reader flags.
func NewWithOptions(code Code, opts Options) *Aggregator {
	return &Aggregator{code: code, c: NewCounters(), pending: map[string]int{}, limit: maxPendingBytes, opts: opts}
}

// Add records one sample: its branch stack in runtime addresses, the delta
// to canonical addresses, and how many times it was seen.
func (a *Aggregator) Add(branches []record.Branch, delta, count uint64) {
	if a.opts.SamplePeriod > 0 {
		count = a.scaled(branches, delta, count)
	}
	key := appendBranchKey(a.key[:0], branches, delta)
	a.key = key
	if i, ok := a.pending[string(key)]; ok {
		a.counts[i] += count
		return
	}
	if len(a.arena)+len(key) > a.limit {
		a.flush()
	}
	a.pending[a.keep(key)] = len(a.counts)
	a.counts = append(a.counts, count)
}

func (a *Aggregator) flush() {
	for k, i := range a.pending {
		a.count(k, a.counts[i])
	}
	clear(a.pending) // before the arena is overwritten: no key points into it
	a.counts = a.counts[:0]
	a.arena = a.arena[:0]
}

// keep copies key into the arena and returns it as a string there.
func (a *Aggregator) keep(key []byte) string {
	if a.arena == nil {
		a.arena = make([]byte, 0, a.limit)
	}
	if len(key) == 0 {
		return ""
	}
	start := len(a.arena)
	a.arena = append(a.arena, key...)
	// Bytes a key points to are never overwritten before flush clears
	// the table (should append move the arena, the old array stays alive
	// as long as keys point into it).
	return unsafe.String(&a.arena[start], len(key))
}

// Counters counts the pending samples and returns the counters.
func (a *Aggregator) Counters() *Counters {
	a.flush()
	a.ranges.flush(a.c.Ranges)
	a.branches.flush(a.c.Branches)
	return a.c
}

// scaled is the count of a sample under --sample-period, as llvm-profgen
// 19 computes it for each sample line.
func (a *Aggregator) scaled(branches []record.Branch, delta, count uint64) uint64 {
	count *= a.opts.SamplePeriod
	if a.opts.LeadingIPOnly {
		return count
	}
	kept := uint64(0)
	for _, b := range branches {
		if a.code.IsCode(b.From+delta) || a.code.IsCode(b.To+delta) {
			kept++
		}
	}
	if kept > 1 {
		count /= kept - 1
	}
	return count
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
	if a.opts.LeadingIPOnly {
		a.countIP(es[0], n)
		return
	}
	var end uint64
	endCode := false // the leading IP is ignored: the newest range has no end
	for i, e := range es {
		dstCode := e.dst != ExternalAddr
		if dstCode {
			a.branches.add(a.c.Branches, record.Branch{From: e.src, To: e.dst}, e.src, e.dst, n)
		}
		if i > 0 {
			a.Stats.Pairs += n
			switch {
			case dstCode && endCode:
				a.countRange(e.dst, end, n)
			case dstCode || endCode:
				a.c.Unused[Range{e.dst, end}] += n
			}
		}
		end, endCode = e.src, e.srcCode
	}
}

// countIP counts a leading-IP sample: its entry From = To = IP.
func (a *Aggregator) countIP(e entry, n uint64) {
	if e.src == e.dst && e.srcCode {
		a.Stats.Pairs += n
		a.c.Ranges[Range{e.src, e.src}] += n
	}
}

func (a *Aggregator) countRange(start, end, n uint64) {
	if start > end || a.code.CrossesUncondBranch(start, end) {
		a.Stats.InvalidRanges += n
		a.c.Unused[Range{start, end}] += n
		return
	}
	a.ranges.add(a.c.Ranges, Range{start, end}, start, end, n)
}

// canonicalEntries decodes a key into entries, with addresses outside the
// code replaced by ExternalAddr and external-to-external entries dropped.
func (a *Aggregator) canonicalEntries(key string, n uint64) []entry {
	es := a.entries[:0]
	var prev uint64
	for len(key) > 0 {
		var src, dst uint64
		src, key = nextKeyAddr(key, prev)
		dst, key = nextKeyAddr(key, src)
		prev = dst
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

// appendBranchKey appends the key of a branch stack in canonical
// addresses: each address as the zigzag varint of its difference from the
// one before (the first from 0). Addresses of one stack lie close
// together, so a key is a third of its fixed-width size: more distinct
// samples fit the pending table, and hashing reads fewer bytes.
func appendBranchKey(key []byte, branches []record.Branch, delta uint64) []byte {
	var prev uint64
	for _, b := range branches {
		from, to := b.From+delta, b.To+delta
		key = binary.AppendVarint(key, int64(from-prev))
		key = binary.AppendVarint(key, int64(to-from))
		prev = to
	}
	return key
}

// nextKeyAddr decodes the next address of a key made by appendBranchKey,
// prev being the address before it: a zigzag varint is a ULEB128 of the
// zigzag-coded difference.
func nextKeyAddr(key string, prev uint64) (uint64, string) {
	d, n := leb128.Uint(key)
	if n == 0 {
		return prev, "" // not reached: keys are made by appendBranchKey
	}
	return prev + uint64(int64(d>>1)^-int64(d&1)), key[n:]
}
