// Package unwind turns hybrid samples (a call stack and an LBR branch stack
// taken together, perf record -g -b) into counters keyed by calling
// context, as llvm-profgen 19's VirtualUnwinder does for context-sensitive
// (CSSPGO) profiles.
//
// In: samples in the binary's canonical addresses (addrspace did the
// process-to-binary mapping): the call stack, leaf first, as perf printed it
// (return addresses for the callers), and the branch stack, newest branch
// first; the binary's decoded code (Code) and its inline frames (Symbols).
// Out: a Trie of calling contexts, each node a frame address under its
// caller's node, holding the fall-through ranges and taken branches that
// ran in that context (Trie.Contexts). Contexts are addresses, never
// names: a line-number profile symbolizes them later (package csprofile),
// a pseudo-probe profile maps them to probes.
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
package unwind

import (
	"encoding/binary"

	"github.com/profgen/profgen/internal/aggregate"
	bin "github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
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
	// SameInlineContext reports whether the instructions at a and b have
	// the same inline frames but for the innermost frame's function and
	// line (llvm-profgen's inlineContextEqual). Instructions without
	// debug info have no context: the answer is then false.
	SameInlineContext(a, b uint64) bool
	// IsFuncStart reports whether a function's address range (a DWARF
	// subprogram range) starts at addr.
	IsFuncStart(addr uint64) bool
}

// Options tune the unwinding.
type Options struct {
	// CallerContexts records ranges and branches under the caller's
	// context, without the leaf frame and without splitting ranges by
	// inline context, as llvm-profgen does for binaries with pseudo probes
	// (the probes carry the inline context). Symbols.SameInlineContext is
	// then not used.
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

// maxPendingBytes bounds the table of distinct samples kept before they are
// unwound: identical samples are unwound once.
const maxPendingBytes = 8 << 20

// Unwinder accumulates hybrid samples into a Trie.
type Unwinder struct {
	code  Code
	sym   Symbols
	opts  Options
	trie  *Trie
	Stats Stats

	pending map[string]uint64 // distinct samples (key: see sampleKey) -> count
	bytes   int

	stack []uint64
	lbr   []aggregate.Branch
	key   []byte
}

// New returns an Unwinder over the binary's code and symbols.
func New(code Code, sym Symbols, opts Options) *Unwinder {
	return &Unwinder{code: code, sym: sym, opts: opts, trie: newTrie(), pending: map[string]uint64{}}
}

// Add records one hybrid sample seen count times: frames is the call
// stack, leaf first (the sampled address, then return addresses), and lbr
// the branch stack, newest first; both in canonical addresses, anything
// outside the binary in any form (it is recognized as not being code).
func (u *Unwinder) Add(frames []uint64, lbr []aggregate.Branch, count uint64) {
	u.Stats.Samples += count
	var cut bool
	var drop Drop
	u.stack, cut, drop = CallStack(u.code, u.sym, frames, u.stack[:0])
	if drop == DropPrologEpilog {
		u.Stats.PrologEpilog += count
		return
	}
	u.lbr = Branches(u.code, lbr, u.lbr[:0])
	if len(u.stack) == 0 || len(u.lbr) == 0 {
		u.Stats.NoBranches += count
		return
	}
	if cut {
		u.Stats.CutStacks += count
	}
	if u.stack[0] == ExternalAddr {
		u.Stats.LeafExternal += count
	}
	u.stack[0] = u.lbr[0].Target // skid: the newest branch target is where the sample ran
	u.queue(count)
}

// queue keeps the sample in the table of distinct samples.
func (u *Unwinder) queue(count uint64) {
	u.key = sampleKey(u.key[:0], u.stack, u.lbr)
	if _, ok := u.pending[string(u.key)]; ok {
		u.pending[string(u.key)] += count
		return
	}
	if u.bytes+len(u.key) > maxPendingBytes {
		u.flush()
	}
	u.bytes += len(u.key)
	u.pending[string(u.key)] = count
}

func (u *Unwinder) flush() {
	for k, n := range u.pending {
		u.stack, u.lbr = decodeKey(k, u.stack[:0], u.lbr[:0])
		u.unwind(u.stack, u.lbr, n)
		u.Stats.Unwound += n
	}
	clear(u.pending)
	u.bytes = 0
}

// Trie unwinds the pending samples and returns the contexts.
func (u *Unwinder) Trie() *Trie {
	u.flush()
	return u.trie
}

// sampleKey encodes a sample: the stack length, the stack, the branches.
func sampleKey(b []byte, stack []uint64, lbr []aggregate.Branch) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(stack)))
	for _, a := range stack {
		b = binary.LittleEndian.AppendUint64(b, a)
	}
	for _, br := range lbr {
		b = binary.LittleEndian.AppendUint64(b, br.Source)
		b = binary.LittleEndian.AppendUint64(b, br.Target)
	}
	return b
}

func decodeKey(k string, stack []uint64, lbr []aggregate.Branch) ([]uint64, []aggregate.Branch) {
	n := int(binary.LittleEndian.Uint32([]byte(k[:4])))
	k = k[4:]
	for i := 0; i < n; i++ {
		stack = append(stack, le64(k))
		k = k[8:]
	}
	for len(k) >= 16 {
		lbr = append(lbr, aggregate.Branch{Source: le64(k), Target: le64(k[8:])})
		k = k[16:]
	}
	return stack, lbr
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

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
