// Package unwind turns hybrid samples (a call stack and an LBR branch stack
// taken together, perf record -g -b) into counters keyed by calling
// context, as llvm-profgen 19's VirtualUnwinder does for context-sensitive
// (CSSPGO) profiles.
//
// In: samples in the binary's canonical addresses (addrspace did the
// process-to-binary mapping): the call stack, leaf first, as perf printed it
// (return addresses for the callers), and the branch stack, newest branch
// first; the binary's decoded code (Code) and its inline frames (Symbols).
// Out: the fall-through ranges and taken branches that ran in each calling
// context (Unwinder.Counters). A context is the address path of a frame
// in the trie of frames the samples unwind into; a Keyer names it: a
// line-number profile symbolizes it (package csprofile), a pseudo-probe
// profile keeps the addresses (AddressContexts).
//
// The replay, per sample: the stack's leaf is replaced by the newest branch
// target (skid); then, newest branch first, the range between a branch's
// target and the next newer branch's source is walked back instruction by
// instruction and split where the inline context changes, and the branch is
// undone against the stack: a call pops a frame, a return pushes the
// callee's frame, another branch moves within the frame. A range that
// cannot have run (its start after its end, an unconditional branch inside,
// a lone external end) stops the unwinding; the rest of the sample is
// counted without stack. External frames (libraries, the kernel) cut the
// context: what runs above them starts a new context. Samples whose leaf is
// in a function's prolog or epilog (first two, last two instructions) are
// dropped, their stack being unreliable.
//
// MissingFrames infers the frames tail calls leave out of a context, as
// llvm-profgen does for pseudo-probe contexts.
package unwind

import (
	"github.com/profgen/profgen/internal/aggregate"
	bin "github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/record"
)

// ExternalAddr stands for any address outside the binary's code, in stacks,
// branches and contexts.
const ExternalAddr = aggregate.ExternalAddr

// Code is the decoded code of the binary; internal/binary's *File
// implements it.
type Code interface {
	// Inst returns the instruction starting at addr.
	Inst(addr uint64) (bin.Inst, bool)
	// PrevInst returns the last instruction starting before addr.
	PrevInst(addr uint64) (bin.Inst, bool)
	// NextInst returns the address of the first instruction starting after
	// addr.
	NextInst(addr uint64) (uint64, bool)
	// CrossesUncondBranch reports whether a call, return or direct jump
	// starts in [start, end).
	CrossesUncondBranch(start, end uint64) bool
}

// Symbols answers what the unwinding needs from the binary's debug info.
type Symbols interface {
	// InlineRun returns the inline context of the instruction at addr, as
	// an id, and the start of a run of addresses up to addr with that
	// context. Two instructions have the same context when they have the
	// same inline frames but for the innermost frame's function and line
	// (llvm-profgen's inlineContextEqual). Instructions without debug
	// info have id 0, which matches no context, not even itself.
	InlineRun(addr uint64) (start uint64, ctx uint32)
	// IsFuncStart reports whether a function's address range (a DWARF
	// subprogram range) starts at addr.
	IsFuncStart(addr uint64) bool
}

// Options tune the unwinding.
type Options struct {
	// CallerContexts records ranges and branches under the caller's
	// context, without the leaf frame and without splitting ranges by
	// inline context, as llvm-profgen does for binaries with pseudo probes
	// (the probes carry the inline context). Symbols.InlineRun is then
	// not used.
	CallerContexts bool
}

// Stats counts what happened to the samples and branches.
type Stats struct {
	Samples      uint64 // hybrid samples given (repeat counts included)
	Unwound      uint64 // samples unwound into contexts
	NoBranches   uint64 // dropped: no branch with an end in the binary
	PrologEpilog uint64 // dropped: the stack's leaf is in a prolog or epilog
	LeafExternal uint64 // unwound samples whose stack leaf is outside the binary
	CutStacks    uint64 // unwound samples whose stack was cut at a return address not after a call

	Branches           uint64 // branches replayed
	PairedExternal     uint64 // ranges from an external address to an external one (skipped)
	UnpairedExternal   uint64 // ranges with one external end: unwinding of the sample stopped
	InvalidRanges      uint64 // ranges that cannot have run: unwinding of the sample stopped
	MismatchedCalls    uint64 // calls whose source is not the caller frame's call site (prolog/epilog)
	MismatchedExtCalls uint64 // the same for calls from external code
	ReturnsToNoCall    uint64 // returns to an address not after a call: unwinding of the sample stopped
}

// Add adds o's counts to s.
func (s *Stats) Add(o Stats) {
	s.Samples += o.Samples
	s.Unwound += o.Unwound
	s.NoBranches += o.NoBranches
	s.PrologEpilog += o.PrologEpilog
	s.LeafExternal += o.LeafExternal
	s.CutStacks += o.CutStacks
	s.Branches += o.Branches
	s.PairedExternal += o.PairedExternal
	s.UnpairedExternal += o.UnpairedExternal
	s.InvalidRanges += o.InvalidRanges
	s.MismatchedCalls += o.MismatchedCalls
	s.MismatchedExtCalls += o.MismatchedExtCalls
	s.ReturnsToNoCall += o.ReturnsToNoCall
}

// Unwinder replays hybrid samples into counters per calling context.
type Unwinder struct {
	code  Code
	sym   Symbols
	opts  Options
	trie  *trie
	Stats Stats

	stack []uint64
	lbr   []record.Branch
	// Distinct, when set, gets the branch warning counts of every
	// distinct sample unwound.
	Distinct *Distinct
	// Pairs, when set, counts the (start, end) pairs of consecutive
	// branches of the samples unwound, as converted (external ends
	// ExternalAddr), for llvm-profgen's range warnings.
	Pairs map[aggregate.Range]uint64
}

// New returns an Unwinder over the binary's code and symbols; keyer names
// the contexts.
func New(code Code, sym Symbols, keyer Keyer, opts Options) *Unwinder {
	return &Unwinder{code: code, sym: sym, opts: opts, trie: newTrie(keyer)}
}

// Add unwinds one hybrid sample seen count times: frames is the call
// stack, leaf first (the sampled address, then return addresses), and lbr
// the branch stack, newest first; both in canonical addresses, anything
// outside the binary in any form (it is recognized as not being code).
// Identical samples are not merged first, as llvm-profgen does: with call
// stacks and branch stacks, nearly every sample is unique.
func (u *Unwinder) Add(frames []uint64, lbr []record.Branch, count uint64) {
	u.Stats.Samples += count
	var cutAt uint64
	var drop Drop
	u.stack, cutAt, drop = CallStack(u.code, u.sym, frames, u.stack[:0])
	if cutAt != 0 && u.Distinct != nil {
		u.Distinct.invalidReturns[cutAt] = struct{}{}
	}
	if drop == DropPrologEpilog {
		u.Stats.PrologEpilog += count
		return
	}
	u.lbr = Branches(u.code, lbr, u.lbr[:0])
	if len(u.stack) == 0 || len(u.lbr) == 0 {
		u.Stats.NoBranches += count
		return
	}
	if cutAt != 0 {
		u.Stats.CutStacks += count
	}
	if u.stack[0] == ExternalAddr {
		u.Stats.LeafExternal += count
	}
	u.stack[0] = u.lbr[0].To // skid: the newest branch target is where the sample ran
	if u.Pairs != nil {
		countPairs(u.Pairs, u.lbr, count)
	}
	var key uint64
	if u.Distinct != nil {
		key = u.Distinct.key(u.stack, u.lbr)
	}
	before := u.Stats
	u.unwind(u.stack, u.lbr, count)
	if d := u.Distinct; d != nil && count > 0 {
		d.note(key, perSample(before, u.Stats, count))
	}
	u.Stats.Unwound += count
}

// Counters returns the counters of each context by the Keyer's id (nil
// for ids that got none). Frames share the counters of their context.
func (u *Unwinder) Counters() []*aggregate.Counters { return u.trie.counters }

// ExternalCallers reports whether a frame of the trie runs under an
// external frame (a callback from a library, main under libc's start):
// its context is cut there. llvm-profgen warns about such truncated
// contexts (its "untracked call sites", all of them external frames).
func (u *Unwinder) ExternalCallers() bool {
	for _, nd := range u.trie.nodes[1:] {
		if nd.parent != root && u.trie.nodes[nd.parent].addr == ExternalAddr {
			return true
		}
	}
	return false
}

// Frames returns the number of frames in the trie.
func (u *Unwinder) Frames() int { return len(u.trie.nodes) - 1 }

// kindAt returns the kind of the instruction at addr, and false when addr
// is not code.
func kindAt(code Code, addr uint64) (insn.Kind, bool) {
	in, ok := code.Inst(addr)
	return in.Kind, ok
}

// callBefore returns the call instruction right before a return address,
// or 0 when the instruction before it is not a call
// (getCallAddrFromFrameAddr). ExternalAddr stays itself.
func callBefore(code Code, ret uint64) uint64 {
	if ret == ExternalAddr {
		return ExternalAddr
	}
	in, ok := code.PrevInst(ret)
	if !ok || in.Kind != insn.Call {
		return 0
	}
	return in.Addr
}

// countPairs adds the fall-through pairs of a branch stack (newest
// first): each branch's target with the source of the one after it.
func countPairs(pairs map[aggregate.Range]uint64, lbr []record.Branch, count uint64) {
	for i := 1; i < len(lbr); i++ {
		pairs[aggregate.Range{Start: lbr[i].To, End: lbr[i-1].From}] += count
	}
}
