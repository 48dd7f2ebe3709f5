package perfdata

import (
	"cmp"
	"slices"
)

// perf script delivers records in time order, as perf's ordered-events
// queue does (tools/perf/util/ordered-events.c): a record with a
// timestamp is queued; PERF_RECORD_FINISHED_ROUND delivers, in time order
// (records of equal time in queueing order), those not later than the
// newest time queued before the previous round; the end of the input
// delivers the rest. A record without a time (0 or none) is delivered at
// once. The native reader orders records the same way, so that they come
// in the order perf script prints them.

// queued is one record waiting in the queue.
type queued struct {
	time uint64
	data []byte
	// where the record came from, for errors
	offset       int64
	inCompressed bool
	inner        int64
}

type orderQueue struct {
	q         []queued
	head      int  // q[:head] is delivered
	sorted    bool // q[head:] is in time order
	maxTime   uint64
	nextFlush uint64   // perf's next_flush: the limit of the next round
	limit     uint64   // records up to this time may be delivered
	now       []queued // records without a time, delivered first
	arena     arena
	copied    int // bytes copied into the arena and still queued
	// keys, spare and moved are sortWaiting's buffers, kept for the next
	// round.
	keys, spare []orderKey
	moved       []queued
}

// orderKey is a queued record's place in time order: its time, and its
// position in the queue for ties.
type orderKey struct {
	time uint64
	pos  int
}

// maxCopied bounds the bytes of a stream (pipe mode) held in the queue:
// past it, the older half is delivered, as perf does when its queue
// reaches its size limit (OE_FLUSH__HALF), so that a stream without
// FINISHED_ROUND records does not take memory without bound.
var maxCopied = 512 << 20

func newOrderQueue() *orderQueue { return &orderQueue{sorted: true} }

func (o *orderQueue) empty() bool { return o.head == len(o.q) }

// push queues a record; copyData says its bytes must be copied (the
// reader reuses them once it moves on).
func (o *orderQueue) push(e queued, copyData bool) {
	if copyData {
		e.data = o.arena.copy(e.data)
		o.copied += len(e.data)
	}
	switch {
	case o.empty():
		o.q, o.head = o.q[:0], 0
		o.maxTime = e.time
	case e.time >= o.maxTime:
		o.maxTime = e.time
	default:
		o.sorted = false
	}
	if len(o.q) == cap(o.q) {
		o.q = slices.Grow(o.q, len(o.q)+1024)
	}
	o.q = append(o.q, e)
	if o.copied > maxCopied {
		first, last := o.q[o.head].time, e.time
		o.release(first + (last-first)/2)
		o.copied = 0
	}
}

// round handles a FINISHED_ROUND: the records up to the limit set at the
// previous round become deliverable; the next limit is the newest time
// queued so far.
func (o *orderQueue) round() {
	o.release(o.nextFlush)
	o.nextFlush = o.maxTime
}

// final makes every record deliverable.
func (o *orderQueue) final() { o.release(^uint64(0)) }

func (o *orderQueue) release(limit uint64) {
	if !o.sorted {
		o.sortWaiting()
		o.sorted = true
	}
	o.limit = limit
}

// sortWaiting puts the records not yet delivered in time order, ties in
// queueing order. It sorts keys that hold no pointers and then moves each
// record once: sorting the records themselves moves them many times, each
// move of their data pointer a write barrier while the collector runs.
func (o *orderQueue) sortWaiting() {
	waiting := o.q[o.head:]
	keys := o.keys[:0]
	for i, e := range waiting {
		keys = append(keys, orderKey{e.time, i})
	}
	keys, o.spare = sortKeys(keys, o.spare)
	moved := o.moved[:0]
	for _, k := range keys {
		moved = append(moved, waiting[k.pos])
	}
	copy(waiting, moved)
	clear(moved) // hold no record's data
	o.keys, o.moved = keys, moved[:0]
}

// pushNow delivers a record without a time before any other.
func (o *orderQueue) pushNow(e queued) { o.now = append(o.now, e) }

// pop returns the next deliverable record. Once none is left, records
// queued later wait for the next release, as in perf.
func (o *orderQueue) pop() (queued, bool) {
	if len(o.now) > 0 {
		e := o.now[0]
		o.now = o.now[:copy(o.now, o.now[1:])]
		return e, true
	}
	if o.empty() || o.q[o.head].time > o.limit {
		o.limit = 0
		return queued{}, false
	}
	e := o.q[o.head]
	o.q[o.head] = queued{} // let the arena chunk go
	o.head++
	if o.head > 4096 && o.head > len(o.q)/2 {
		n := copy(o.q, o.q[o.head:])
		clear(o.q[n:])
		o.q, o.head = o.q[:n], 0
	}
	return e, true
}

// compareKeys orders keys by time, then by position.
func compareKeys(a, b orderKey) int {
	if c := cmp.Compare(a.time, b.time); c != 0 {
		return c
	}
	return cmp.Compare(a.pos, b.pos)
}

// maxRuns is the most runs in time order that sortKeys merges; keys in
// more runs are sorted.
const maxRuns = 64

// sortKeys sorts keys by compareKeys, using spare (grown as needed) for
// merging; it returns the sorted keys and the other buffer. perf writes
// the records of each CPU's buffer in turn, each in time order: the keys
// of a round are a few runs in order, which merging puts in order in a few
// linear passes.
func sortKeys(keys, spare []orderKey) (sorted, other []orderKey) {
	runs := runStarts(keys)
	if len(runs) > maxRuns {
		slices.SortFunc(keys, compareKeys)
		return keys, spare
	}
	for len(runs) > 1 {
		spare = slices.Grow(spare[:0], len(keys))[:len(keys)]
		var next []int
		for i := 0; i < len(runs); i += 2 {
			next = append(next, runs[i])
			lo, mid, hi := runs[i], len(keys), len(keys)
			if i+1 < len(runs) {
				mid = runs[i+1]
			}
			if i+2 < len(runs) {
				hi = runs[i+2]
			}
			mergeKeys(spare[lo:hi], keys[lo:mid], keys[mid:hi])
		}
		keys, spare, runs = spare, keys, next
	}
	return keys, spare
}

// runStarts returns where each run of keys in order starts.
func runStarts(keys []orderKey) []int {
	if len(keys) == 0 {
		return nil
	}
	runs := []int{0}
	for i := 1; i < len(keys) && len(runs) <= maxRuns; i++ {
		if compareKeys(keys[i-1], keys[i]) > 0 {
			runs = append(runs, i)
		}
	}
	return runs
}

// mergeKeys merges the sorted a and b into dst, which holds both.
func mergeKeys(dst, a, b []orderKey) {
	i, j := 0, 0
	for k := range dst {
		if j == len(b) || (i < len(a) && compareKeys(a[i], b[j]) < 0) {
			dst[k] = a[i]
			i++
		} else {
			dst[k] = b[j]
			j++
		}
	}
}

// arena copies records into large chunks; a chunk is freed by the
// garbage collector once no queued record points into it.
type arena struct{ chunk []byte }

func (a *arena) copy(b []byte) []byte {
	if cap(a.chunk)-len(a.chunk) < len(b) {
		a.chunk = make([]byte, 0, max(1<<20, len(b)))
	}
	start := len(a.chunk)
	a.chunk = append(a.chunk, b...)
	return a.chunk[start:len(a.chunk):len(a.chunk)]
}

// minOffset is the smallest file offset of a queued record read from the
// file itself (not decompressed), or def when there is none; 0 when the
// queue is too long to look through (a file without rounds, all queued).
func (o *orderQueue) minOffset(def int64) int64 {
	if len(o.q)-o.head > 1<<16 {
		return 0
	}
	m := def
	for _, e := range o.q[o.head:] {
		if !e.inCompressed && e.offset < m {
			m = e.offset
		}
	}
	for _, e := range o.now {
		if !e.inCompressed && e.offset < m {
			m = e.offset
		}
	}
	return m
}
