package driver

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"path/filepath"
	"slices"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/aggregate"
	bin "github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/csprofile"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/unwind"
)

// branchMode is how samples with branch stacks are used. As llvm-profgen,
// the first one decides for the whole input: a hybrid sample (call stack
// and branch stack) makes a context-sensitive profile, or with
// --ignore-stack-samples a flat one from the hybrid samples' branches; a
// branch stack alone makes a flat profile of every branch stack.
type branchMode uint8

const (
	modeUndecided  branchMode = iota
	modeLBR                   // branch stacks only
	modeCS                    // hybrid samples unwound into contexts
	modeFlatHybrid            // hybrid samples' branch stacks, stacks ignored
)

// hybridPath takes the samples with branch stacks once the input turned
// out hybrid.
type hybridPath struct {
	bins  *binaries
	table *addrspace.Table
	opts  *CSOptions
	mode  branchMode
	// probes: the binary has pseudo probes, so contexts are kept as call
	// site addresses (llvm-profgen's AddressStack), not symbolized.
	probes bool

	syms   *csprofile.Symbols
	queue  *unwindQueue
	pf     *prefetcher
	frameN int // frames in the unwinders' tries
	frames []uint64
	lbr    []record.Branch
	stack  []uint64
	sum    hybridSummary
	flat   flatDistinct
	// disagree, when not nil, refuses hybrid samples: the outputs of the
	// run read them in different ways (hybridReadings).
	disagree error
}

// flatDistinct is what llvm-profgen's warning about stacks cut at invalid
// return addresses counts with --ignore-stack-samples: the distinct such
// addresses, and the distinct samples kept (their branch stacks: the
// stacks are cleared before llvm aggregates them), up to
// unwind.MaxDistinct of them, each further sample counted as distinct.
type flatDistinct struct {
	seed    maphash.Seed
	samples map[uint64]struct{}
	beyond  int // samples past unwind.MaxDistinct
	invalid map[uint64]struct{}
	buf     []byte
	lbr     []record.Branch
}

// add notes a sample's cut address (0: none) and, when kept, its branch
// stack as llvm converts it.
func (f *flatDistinct) add(code unwind.Code, cutAt uint64, kept bool, lbr []record.Branch) {
	if f.samples == nil {
		f.seed, f.samples, f.invalid = maphash.MakeSeed(), map[uint64]struct{}{}, map[uint64]struct{}{}
	}
	if cutAt != 0 {
		f.invalid[cutAt] = struct{}{}
	}
	if !kept {
		return
	}
	f.lbr = unwind.Branches(code, lbr, f.lbr[:0])
	if len(f.lbr) == 0 {
		return
	}
	b := f.buf[:0]
	for _, br := range f.lbr {
		b = binary.LittleEndian.AppendUint64(b, br.From)
		b = binary.LittleEndian.AppendUint64(b, br.To)
	}
	f.buf = b
	f.note(maphash.Bytes(f.seed, b))
}

func (f *flatDistinct) note(key uint64) {
	switch _, seen := f.samples[key]; {
	case seen:
	case len(f.samples) < unwind.MaxDistinct:
		f.samples[key] = struct{}{}
	default:
		f.beyond++
	}
}

// warn prints the share, each address first with detailed.
func (f *flatDistinct) warn(w io.Writer, detailed bool) {
	invalid := make([]uint64, 0, len(f.invalid))
	for a := range f.invalid {
		invalid = append(invalid, a)
	}
	slices.Sort(invalid)
	if detailed {
		for _, a := range invalid {
			fmt.Fprintf(w, "warning: Truncated stack sample due to invalid return address at %#x, likely caused by frame pointer omission\n", a)
		}
	}
	warnShare(w, uint64(len(invalid)), uint64(len(f.samples)+f.beyond), "of truncated stack samples due to invalid return address, likely caused by frame pointer omission.")
}

// hybridSummary is what happened to the samples of a hybrid input.
type hybridSummary struct {
	Samples      uint64 // hybrid samples
	NoStack      uint64 // samples with a branch stack but no call stack (dropped)
	NoMapping    uint64 // samples of a process with no known mapping of the binary
	Filtered     uint64 // samples of processes not asked for with --pid
	PrologEpilog uint64 // dropped (flat mode): the stack's leaf in a prolog or epilog
	// LeafExternal counts the sample records (repeat counts not
	// included) whose stack leaf is outside the binary, for llvm-profgen's
	// warning.
	LeafExternal uint64
	Unwind       unwind.Stats
}

func newHybridPath(bins *binaries, table *addrspace.Table, opts *CSOptions, probes bool, pf *prefetcher) *hybridPath {
	return &hybridPath{bins: bins, table: table, opts: opts, probes: probes, pf: pf}
}

// newScanHybridPath is the hybrid path of a scan: for BOLT output, which
// takes branch stacks alone (as perf2bolt), hybrid samples go to the LBR
// path from the start.
func newScanHybridPath(p *plan, bins *binaries, table *addrspace.Table, pf *prefetcher) *hybridPath {
	h := newHybridPath(bins, table, &p.CS, usePseudoProbes(p, bins), pf)
	reading, err := hybridReadings(p)
	if reading == modeLBR {
		h.mode = modeLBR
	}
	h.disagree = err
	return h
}

// route takes a sample with a branch stack; it returns true when the
// sample is for the LBR path.
func (h *hybridPath) route(rec *record.Record) (toLBR bool, err error) {
	hybrid := len(rec.Sample.Frames) > 0
	if h.mode == modeUndecided {
		if err := h.decide(hybrid); err != nil {
			return false, err
		}
	}
	switch {
	case h.mode == modeLBR:
		return true, nil
	case !hybrid:
		h.sum.NoStack += rec.Sample.Count
		return false, nil
	}
	h.sum.Samples += rec.Sample.Count
	delta, why := h.table.Delta(rec.HasPID, rec.PID)
	switch why {
	case addrspace.NoMapping:
		h.sum.NoMapping += rec.Sample.Count
		return false, nil
	case addrspace.FilteredPID:
		h.sum.Filtered += rec.Sample.Count
		return false, nil
	}
	h.canonicalFrames(rec.Sample.Frames, delta)
	if !h.bins.primary().IsCode(h.frames[0]) {
		h.sum.LeafExternal++
	}
	if h.mode == modeFlatHybrid {
		return h.keepFlat(rec.Sample.Branches, delta), nil
	}
	h.pf.hybridFrames(h.frames)
	h.lbr = h.lbr[:0]
	for _, b := range rec.Sample.Branches {
		h.lbr = append(h.lbr, record.Branch{From: b.From + delta, To: b.To + delta})
	}
	h.queue.add(h.frames, h.lbr, rec.Sample.Count)
	return false, nil
}

// decide sets the mode from the first sample with a branch stack.
func (h *hybridPath) decide(hybrid bool) error {
	switch {
	case !hybrid:
		h.mode = modeLBR
		return nil
	case h.disagree != nil:
		return h.disagree
	case len(h.bins.files) > 1:
		return usagef("hybrid samples (perf record -b -g) make the profile of one binary; %d were given or found by build id (give the one with --binary; BOLT's formats take several)", len(h.bins.files))
	case h.opts.IgnoreStackSamples:
		h.mode = modeFlatHybrid
	default:
		h.mode = modeCS
	}
	sym, err := h.bins.symbolizer(0)
	if err != nil {
		return err
	}
	h.syms = csprofile.NewSymbols(sym)
	if h.mode == modeCS {
		h.queue = newUnwindQueue(h.newUnwinder(sym))
	}
	return nil
}

// newUnwinder returns the maker of each unwinding goroutine's state: for
// a binary with pseudo probes, ranges and branches under the call-site
// addresses of the caller frames; otherwise under symbolized frames,
// split by inline context.
func (h *hybridPath) newUnwinder(sym csprofile.Symbolizer) func() *unwinder {
	copts := csprofile.ContextOptions{
		CompressRecursion: h.opts.CompressRecursion,
		MaxContextDepth:   h.opts.MaxContextDepth,
		FSDiscriminators:  h.bins.generateOptions(0).FSDiscriminators,
	}
	first := true
	seed := maphash.MakeSeed() // one for all, so that their distinct samples merge
	return func() *unwinder {
		syms := h.syms // the first unwinder's symbol cache serves generation afterwards
		if !first {
			syms = csprofile.NewSymbols(sym)
		}
		first = false
		var w *unwinder
		if h.probes {
			keys := unwind.NewAddressContexts(copts.CompressRecursion, h.opts.addressContextDepth())
			w = &unwinder{u: unwind.New(bin.NewCodeCache(h.bins.primary()), syms, keys, unwind.Options{CallerContexts: true}), syms: syms, addrs: keys}
		} else {
			keys := csprofile.NewFrameContexts(syms, copts)
			w = &unwinder{u: unwind.New(bin.NewCodeCache(h.bins.primary()), syms, keys, unwind.Options{}), syms: syms, keys: keys}
		}
		w.u.Distinct = unwind.NewDistinct(seed)
		w.u.Pairs = map[aggregate.Range]uint64{}
		return w
	}
}

// keepFlat applies llvm-profgen's check of a hybrid sample whose stack is
// otherwise ignored: the sample is dropped when its leaf is in a prolog or
// epilog.
func (h *hybridPath) keepFlat(branches []record.Branch, delta uint64) bool {
	var drop unwind.Drop
	var cutAt uint64
	h.stack, cutAt, drop = unwind.CallStack(h.bins.primary(), h.syms, h.frames, h.stack[:0])
	keep := drop == unwind.Keep && len(h.stack) > 0
	h.lbr = h.lbr[:0]
	for _, b := range branches {
		h.lbr = append(h.lbr, record.Branch{From: b.From + delta, To: b.To + delta})
	}
	h.flat.add(h.bins.primary(), cutAt, keep, h.lbr)
	if drop != unwind.Keep {
		h.sum.PrologEpilog++
		return false
	}
	return true
}

// canonicalFrames places the call stack in the binary's addresses: frames
// perf printed as process addresses by the process's delta, frames it
// printed relative to their DSO by the binary's segments (frames of other
// DSOs become ExternalAddr).
func (h *hybridPath) canonicalFrames(frames []record.Frame, delta uint64) {
	h.frames = h.frames[:0]
	name := filepath.Base(h.bins.primary().Path())
	for _, f := range frames {
		a := f.Addr + delta
		if f.Relative {
			a = unwind.ExternalAddr
			if filepath.Base(f.DSO) == name {
				if v, ok := h.bins.primary().VaddrOfOffset(f.Addr); ok {
					a = v
				}
			}
		}
		h.frames = append(h.frames, a)
	}
}

// cs reports whether the input made a context-sensitive profile.
func (h *hybridPath) cs() bool { return h.mode == modeCS }

// lbrOnly reports whether the input was read as branch stacks without
// call stacks (or has none).
func (h *hybridPath) lbrOnly() bool { return h.mode == modeLBR || h.mode == modeUndecided }

// finish waits for the unwinding to end and collects its statistics; it
// may be called more than once.
func (h *hybridPath) finish() {
	if h.queue != nil {
		h.queue.finish()
		h.sum.Unwind, h.frameN = h.queue.stats()
	}
}

// contexts returns the frame contexts of the unwound samples (binaries
// without pseudo probes).
func (h *hybridPath) contexts() []csprofile.Context {
	return h.queue.contexts()
}

// addressContexts returns the address contexts of the unwound samples
// (binaries with pseudo probes).
func (h *hybridPath) addressContexts() []unwind.Context {
	return h.queue.addressContexts()
}

func (h *hybridPath) print(w io.Writer, name string) {
	s := h.sum
	if s.Samples == 0 && s.NoStack == 0 {
		return
	}
	fmt.Fprintf(w, "profgen: %d hybrid samples (call stack and branch stack)%s\n", s.Samples, dropList(hybridDrops(s, name)))
	if s.NoStack > 0 {
		fmt.Fprintf(w, "profgen: warning: %d samples with a branch stack but no call stack dropped (the input is hybrid)\n", s.NoStack)
	}
	if h.mode != modeCS {
		return
	}
	u := s.Unwind
	fmt.Fprintf(w, "profgen: %d samples unwound (%d frames); %d branches: %d ranges from outside the binary back to it, %d ranges that cannot have run and %d with one end outside stopped the unwinding\n",
		u.Unwound, h.frameN, u.Branches, u.PairedExternal, u.InvalidRanges, u.UnpairedExternal)
	if u.CutStacks > 0 {
		fmt.Fprintf(w, "profgen: warning: %d call stacks cut at a return address that follows no call (code without frame pointers?)\n", u.CutStacks)
	}
}
