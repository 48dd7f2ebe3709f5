package aggregate

import "github.com/profgen/profgen/internal/addrspace"

// Parallel aggregation: each worker aggregates the samples of its chunks
// of the input in its own Stacks, placing them with the table of the chunk
// it parses (SetTable); Merge then adds the workers' results in input
// order, which numbers objects and keeps perf's symbol names as one pass
// over the whole input would.

// SetTable sets the table that places process addresses from now on.
func (a *Stacks) SetTable(t *addrspace.Table) { a.table = t }

// Merge adds o's stacks and counts to a's, as if o's samples came after
// a's.
func (a *Stacks) Merge(o *Stacks) {
	ids := make([]int32, len(o.counts.Objects))
	for i, obj := range o.counts.Objects {
		a.seen = obj.First // kept by a new object: o's samples come after a's
		a.seen.Sample += a.counts.Stats.Samples
		ids[i] = a.object(obj.Path, obj.Binary, obj.Kernel)
	}
	for _, st := range o.stacks {
		a.locs = a.locs[:0]
		for _, l := range st.Locs {
			a.locs = append(a.locs, Loc{ids[l.Obj], l.Addr})
		}
		a.key = AppendKey(a.key[:0], a.locs)
		dst := a.stacks[string(a.key)]
		if dst == nil {
			dst = &Stack{Locs: append([]Loc(nil), a.locs...)}
			a.stacks[string(a.key)] = dst
		}
		dst.Count += st.Count
		dst.Period += st.Period
	}
	a.mergeNames(o, ids)
	for ev, n := range o.counts.Events {
		a.counts.Events[ev] += n
	}
	a.mergeTimes(o.counts.FirstNS, o.counts.LastNS)
	a.counts.Stats.add(&o.counts.Stats)
}

func (a *Stacks) mergeTimes(first, last uint64) {
	if first != 0 {
		a.noteTime(first)
	}
	if last != 0 {
		a.noteTime(last)
	}
}

func (s *StackStats) add(o *StackStats) {
	s.Samples += o.Samples
	s.Used += o.Used
	s.NoBinary += o.NoBinary
	s.NoMapping += o.NoMapping
	s.Filtered += o.Filtered
	s.Unplaced += o.Unplaced
	s.LeafInBins += o.LeafInBins
	s.NotFound += o.NotFound
	for i, n := range o.NotFoundLeaves {
		s.NotFoundLeaves[i] += n
	}
	for i, n := range o.PerBinary {
		s.PerBinary[i] += n
	}
}

// Add adds o's counts to s.
func (s *Stats) Add(o Stats) {
	s.Samples += o.Samples
	s.NoBranches += o.NoBranches
	s.Entries += o.Entries
	s.ExternalEnds += o.ExternalEnds
	s.DroppedExtExt += o.DroppedExtExt
	s.InvalidRanges += o.InvalidRanges
	s.Pairs += o.Pairs
}

// ShareMemory divides the bound of the table of distinct samples kept
// before counting among n aggregators that run side by side, so that
// together they keep what one would.
func (a *Aggregator) ShareMemory(n int) { a.limit = maxPendingBytes / max(n, 1) }
