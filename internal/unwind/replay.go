package unwind

import (
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/record"
)

// state is the unwinding of one sample: the frame the replay is in (a trie
// node), the address it has reached, and whether the replay broke.
type state struct {
	leaf    nodeID
	ip      uint64
	invalid bool
}

// unwind replays one sample seen n times: its stack (leaf first, the leaf
// already the newest branch target) and its branches, newest first.
func (u *Unwinder) unwind(stack []uint64, lbr []record.Branch, n uint64) {
	st := state{leaf: root, ip: stack[0]}
	for i := len(stack) - 1; i >= 0; i-- {
		st.leaf = u.trie.child(st.leaf, stack[i])
	}
	u.Stats.Branches += uint64(len(lbr)) * n
	for i, br := range lbr {
		if i > 0 { // the newest range has no end: the sample's IP is not trusted
			u.unwindLinear(&st, br.To, n)
		}
		switch {
		case st.invalid:
			u.restart(&st, br.From)
		case u.isCall(br):
			u.unwindCall(&st, br.From, n)
		case u.isReturn(br):
			u.unwindReturn(&st, br, n)
		default:
			u.switchTo(&st, br.From)
			st.ip = br.From
		}
		u.recordBranch(&st, br, n)
	}
}

// isCall: a call instruction, or a branch from outside into code that does
// not follow a call (a callback).
func (u *Unwinder) isCall(br record.Branch) bool {
	if k, _ := kindAt(u.code, br.From); k == insn.Call {
		return true
	}
	return br.From == ExternalAddr && callBefore(u.code, br.To) == 0
}

// isReturn: a return instruction, or a branch from outside to an address
// after a call (a library function returning).
func (u *Unwinder) isReturn(br record.Branch) bool {
	if k, _ := kindAt(u.code, br.From); k == insn.Return {
		return true
	}
	return br.From == ExternalAddr && callBefore(u.code, br.To) != 0
}

// unwindLinear walks back from the current address to target, the start
// of the range that ran before it, recording the range, split where the
// inline context changes, each part under its frame.
func (u *Unwinder) unwindLinear(st *state, target, n uint64) {
	end := st.ip
	switch {
	case end == ExternalAddr && target == ExternalAddr:
		u.Stats.PairedExternal += n // ran outside and came back: the frames below stay valid
		return
	case end == ExternalAddr || target == ExternalAddr:
		u.Stats.UnpairedExternal += n // an interrupt, or a broken trace
		st.invalid = true
		return
	case target > end || u.code.CrossesUncondBranch(target, end):
		u.Stats.InvalidRanges += n
		st.invalid = true
		return
	}
	if u.opts.CallerContexts {
		u.trie.addRange(u.trie.nodes[st.leaf].parent, target, end, n)
		st.ip = target
		return
	}
	ip, end := u.splitByInlining(st, target, end, n)
	u.switchTo(st, ip)
	u.trie.addRange(st.leaf, ip, end, n)
	st.ip = ip
}

// splitByInlining walks back from end to target as llvm-profgen does,
// instruction by instruction, recording under its own frame each part
// that starts where the inline context differs from the instruction
// before; it returns the last part, [target, end'], left to record.
// Instead of comparing every instruction with the one before, it jumps
// over runs of one inline context.
func (u *Unwinder) splitByInlining(st *state, target, end, n uint64) (uint64, uint64) {
	ip := end
	for ip > target {
		start, ctx := u.sym.InlineRun(ip)
		first := ip
		if ctx != 0 {
			if start <= target {
				return target, end // one context down to target
			}
			if f, ok := u.code.NextInst(start - 1); ok && f < ip {
				first = f
			}
		}
		prev := uint64(0)
		if in, ok := u.code.PrevInst(first); ok {
			prev = in.Addr
		}
		if ctx != 0 {
			if _, pctx := u.sym.InlineRun(prev); pctx == ctx {
				ip = prev // the context goes on across the run boundary
				continue
			}
		}
		u.switchTo(st, first)
		u.trie.addRange(st.leaf, first, end, n)
		end, ip = prev, prev
	}
	return ip, end
}

// unwindCall undoes a call: the replay returns to the caller's frame. When
// the caller frame is not the call site (the stack was taken in a prolog or
// epilog, or the call came from outside), the leaf frame is replaced by
// the call site instead.
func (u *Unwinder) unwindCall(st *state, src, n uint64) {
	parent := u.trie.nodes[st.leaf].parent
	switch {
	case parent != root && u.trie.nodes[parent].addr == src:
		st.leaf = parent
	default:
		u.switchTo(st, src)
		if parent != root && src == ExternalAddr {
			u.Stats.MismatchedExtCalls += n
		} else if parent != root {
			u.Stats.MismatchedCalls += n
		}
	}
	st.ip = src
}

// unwindReturn undoes a return: the leaf becomes the call site the return
// went back to, and the callee's frame, at the return instruction, is
// pushed on it. A return to an address that follows no call breaks the
// replay (llvm-profgen 19 makes a frame of address 0 there; later versions
// give up on the sample, as here).
func (u *Unwinder) unwindReturn(st *state, br record.Branch, n uint64) {
	call := callBefore(u.code, br.To)
	if call == 0 {
		u.Stats.ReturnsToNoCall += n
		st.invalid = true
		u.restart(st, br.From)
		return
	}
	u.switchTo(st, call)
	st.leaf = u.trie.child(st.leaf, br.From)
	st.ip = br.From
}

// restart continues a broken replay without stack: the branch source
// becomes a frame of its own.
func (u *Unwinder) restart(st *state, src uint64) {
	st.ip = src
	st.leaf = u.trie.child(root, src)
}

// switchTo moves the leaf frame to addr within the same caller.
func (u *Unwinder) switchTo(st *state, addr uint64) {
	nd := u.trie.nodes[st.leaf]
	if nd.addr == addr {
		return
	}
	if st.leaf == root {
		st.leaf = u.trie.child(root, addr)
		return
	}
	st.leaf = u.trie.child(nd.parent, addr)
}

// recordBranch counts a branch in the context of its source, after the
// replay undid it. Branches to outside are not counted; branches from
// outside count in the empty context (they give head samples).
func (u *Unwinder) recordBranch(st *state, br record.Branch, n uint64) {
	switch {
	case br.To == ExternalAddr:
	case br.From == ExternalAddr:
		u.trie.addBranch(root, br.From, br.To, n)
	case u.opts.CallerContexts:
		u.trie.addBranch(u.trie.nodes[st.leaf].parent, br.From, br.To, n)
	default:
		u.trie.addBranch(st.leaf, br.From, br.To, n)
	}
}
