package memprofsym

import (
	"fmt"

	"github.com/profgen/profgen/internal/densemap"
	"github.com/profgen/profgen/internal/instrprof/memprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// symbolizer turns the raw profile's program counters into frames.
type symbolizer struct {
	table   *symbolize.Table
	text    text
	raw     *memprof.Raw
	data    *memprof.Data
	names   map[uint64]string
	frames  map[uint64][]memprof.FrameID // per address, leaf first
	dropped map[uint64]bool
	buf     []symbolize.Frame
}

// symbolizeStacks symbolizes every address of every call stack, and
// returns the stacks without the addresses dropped, empty stacks left
// out.
func (s *symbolizer) symbolizeStacks() (map[uint64][]uint64, error) {
	out := map[uint64][]uint64{}
	// In the order of llvm's DenseMap of the stacks: frames get their
	// place in version 2's frame table in the order they are symbolized.
	for _, i := range densemap.Order(s.raw.StackOrder, 0) {
		id := s.raw.StackOrder[i]
		var kept []uint64
		for _, pc := range s.raw.Stacks[id] {
			if s.symbolizeAddr(pc) {
				kept = append(kept, pc)
			}
		}
		if len(kept) > 0 {
			out[id] = kept
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w", ErrNoEntries)
	}
	return out, nil
}

// symbolizeAddr symbolizes pc once; false when it is dropped.
func (s *symbolizer) symbolizeAddr(pc uint64) bool {
	if _, ok := s.frames[pc]; ok {
		return true
	}
	if s.dropped[pc] {
		return false
	}
	s.buf = s.table.Frames(s.text.moduleOffset(pc), s.buf)
	n := len(s.buf)
	if n == 0 || s.buf[n-1].Func == "" || isRuntimeFile(s.buf[n-1].File) {
		s.dropped[pc] = true
		return false
	}
	ids := make([]memprof.FrameID, 0, n)
	for i := n - 1; i >= 0; i-- {
		f := s.buf[i]
		guid, name := guidOf(f.Func)
		s.names[guid] = name
		ids = append(ids, s.data.AddFrame(memprof.Frame{Function: guid, LineOffset: f.Line - f.StartLine, Column: f.Column, Inline: i != 0}))
	}
	s.frames[pc] = ids
	return true
}

// mapRecords makes the records: each context's MIB goes to the functions
// of its leaf's inline chain, each call site on a context to the
// function of each of its frames.
func (s *symbolizer) mapRecords(stacks map[uint64][]uint64) error {
	var callers []uint64
	sites := map[uint64][]uint64{} // GUID -> addresses, in order, once each
	for _, b := range s.raw.Blocks {
		pcs, ok := stacks[b.StackID]
		if !ok {
			if _, known := s.raw.Stacks[b.StackID]; known {
				continue // every frame dropped: llvm drops the block too
			}
			return fmt.Errorf("%w: memprof callstack record does not contain id: %d", memprof.ErrMalformed, b.StackID)
		}
		var stack []memprof.FrameID
		for i, pc := range pcs {
			fr := s.frames[pc]
			for j, id := range fr {
				if i == 0 && j == 0 {
					continue
				}
				guid := s.data.Frames[id].Function
				if _, seen := sites[guid]; !seen {
					callers = append(callers, guid)
				}
				sites[guid] = appendOnce(sites[guid], pc)
			}
			stack = append(stack, fr...)
		}
		s.addAllocSite(s.data.AddStack(stack), stack, b.MIB)
	}
	for _, guid := range callers {
		r := s.data.Record(guid)
		for _, pc := range sites[guid] {
			r.CallSites = append(r.CallSites, memprof.CallSite{Stack: s.data.AddStack(s.frames[pc])})
		}
	}
	return nil
}

// addAllocSite attaches the context to the leaf function and, through
// inlined frames, to each function up to the first not inlined.
func (s *symbolizer) addAllocSite(id memprof.StackID, stack []memprof.FrameID, m memprof.MIB) {
	for _, fid := range stack {
		f := s.data.Frames[fid]
		r := s.data.Record(f.Function)
		r.AllocSites = append(r.AllocSites, memprof.AllocSite{Stack: id, Info: m})
		if !f.Inline {
			return
		}
	}
}

func appendOnce(list []uint64, x uint64) []uint64 {
	for _, y := range list {
		if y == x {
			return list
		}
	}
	return append(list, x)
}
