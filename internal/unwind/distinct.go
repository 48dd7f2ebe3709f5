package unwind

import (
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/profgen/profgen/internal/record"
)

// BranchWarnings are llvm-profgen's unwinder counts behind its branch
// warnings. Its VirtualUnwinder unwinds each distinct sample once (the
// samples are aggregated first, the repeat count only weighs the
// counters), so these count every distinct sample once.
type BranchWarnings struct {
	Branches           uint64 // NumTotalBranches
	PairedExternal     uint64 // NumPairedExtAddr
	UnpairedExternal   uint64 // NumUnpairedExtAddr
	MismatchedCalls    uint64 // NumMismatchedProEpiBranch
	MismatchedExtCalls uint64 // NumMismatchedExtCallBranch
}

func (w *BranchWarnings) add(o BranchWarnings) {
	w.Branches += o.Branches
	w.PairedExternal += o.PairedExternal
	w.UnpairedExternal += o.UnpairedExternal
	w.MismatchedCalls += o.MismatchedCalls
	w.MismatchedExtCalls += o.MismatchedExtCalls
}

// perSample returns the counts of one sample from the weighted counts
// its replay added (after minus before, n times each).
func perSample(before, after Stats, n uint64) BranchWarnings {
	return BranchWarnings{
		Branches:           (after.Branches - before.Branches) / n,
		PairedExternal:     (after.PairedExternal - before.PairedExternal) / n,
		UnpairedExternal:   (after.UnpairedExternal - before.UnpairedExternal) / n,
		MismatchedCalls:    (after.MismatchedCalls - before.MismatchedCalls) / n,
		MismatchedExtCalls: (after.MismatchedExtCalls - before.MismatchedExtCalls) / n,
	}
}

// MaxDistinct bounds the distinct samples a Distinct tells apart, so that
// its memory does not grow with the input (llvm-profgen holds every
// distinct sample in memory). Past it, each further sample counts as a
// distinct one: hybrid samples nearly all are, so the warnings' shares
// stay what llvm prints to within a fraction of a percent.
const MaxDistinct = 1 << 18

// Distinct keeps the branch warning counts of each distinct sample, keyed
// by a hash of its stack and branches as unwound (llvm-profgen's
// aggregation key), up to MaxDistinct of them; unwinders sharing one seed
// can be merged.
type Distinct struct {
	seed    maphash.Seed
	samples map[uint64]BranchWarnings
	beyond  BranchWarnings // the counts of samples past MaxDistinct
	nBeyond int            // how many
	// invalidReturns are the return addresses not after a call that cut
	// stacks, of every sample (those dropped afterwards too).
	invalidReturns map[uint64]struct{}
	buf            []byte
}

// NewDistinct returns an empty Distinct hashing with seed.
func NewDistinct(seed maphash.Seed) *Distinct {
	return &Distinct{seed: seed, samples: map[uint64]BranchWarnings{}, invalidReturns: map[uint64]struct{}{}}
}

// InvalidReturns returns the return addresses that cut stacks, sorted.
func (d *Distinct) InvalidReturns() []uint64 {
	out := make([]uint64, 0, len(d.invalidReturns))
	for a := range d.invalidReturns {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// key hashes a sample's stack and branches.
func (d *Distinct) key(stack []uint64, lbr []record.Branch) uint64 {
	b := d.buf[:0]
	b = binary.LittleEndian.AppendUint32(b, uint32(len(stack)))
	for _, a := range stack {
		b = binary.LittleEndian.AppendUint64(b, a)
	}
	for _, br := range lbr {
		b = binary.LittleEndian.AppendUint64(b, br.From)
		b = binary.LittleEndian.AppendUint64(b, br.To)
	}
	d.buf = b
	return maphash.Bytes(d.seed, b)
}

// Len returns the number of distinct samples.
func (d *Distinct) Len() int { return len(d.samples) + d.nBeyond }

// note records the counts w of the sample with key, unless the sample
// was seen before.
func (d *Distinct) note(key uint64, w BranchWarnings) {
	if _, ok := d.samples[key]; ok {
		return
	}
	if len(d.samples) < MaxDistinct {
		d.samples[key] = w
		return
	}
	d.beyond.add(w)
	d.nBeyond++
}

// Merge adds o's samples and return addresses that d does not have.
func (d *Distinct) Merge(o *Distinct) {
	for a := range o.invalidReturns {
		d.invalidReturns[a] = struct{}{}
	}
	for k, w := range o.samples {
		d.note(k, w)
	}
	d.beyond.add(o.beyond)
	d.nBeyond += o.nBeyond
}

// Warnings sums the counts of the distinct samples.
func (d *Distinct) Warnings() BranchWarnings {
	w := d.beyond
	for _, s := range d.samples {
		w.add(s)
	}
	return w
}
