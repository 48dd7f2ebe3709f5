package unwind

import (
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/record"
)

// Drop says why a sample is not used.
type Drop uint8

const (
	Keep             Drop = iota
	DropPrologEpilog      // the stack's leaf is in a prolog or epilog
)

// CallStack turns perf's call stack (leaf first: the sampled address, then
// return addresses) into llvm-profgen's: a frame outside the binary becomes
// ExternalAddr (one for a run of them, none at the bottom), a return
// address becomes its call instruction's address, and the stack stops at a
// return address that does not follow a call (cutAt is then that address,
// else 0: a frame pointer chain broken by code without frame pointers). The stack is
// appended to dst. A sample whose leaf lies in the first two or last two
// instructions of a function is to be dropped (DropPrologEpilog): its
// caller frames are unreliable there. llvm-profgen drops such samples even
// when it ignores their stacks (--ignore-stack-samples).
func CallStack(code Code, sym Symbols, frames []uint64, dst []uint64) (stack []uint64, cutAt uint64, drop Drop) {
	stack = dst
	for i, a := range frames {
		if _, ok := code.Inst(a); !ok {
			if len(stack) == 0 || stack[len(stack)-1] != ExternalAddr {
				stack = append(stack, ExternalAddr)
			}
			continue
		}
		if i > 0 {
			call := callBefore(code, a)
			if call == 0 {
				cutAt = a
				break
			}
			a = call
		}
		stack = append(stack, a)
	}
	if n := len(stack); n > 1 && stack[n-1] == ExternalAddr {
		stack = stack[:n-1]
	}
	if len(stack) > 0 && inPrologEpilog(code, sym, stack[0]) {
		return stack, cutAt, DropPrologEpilog
	}
	return stack, cutAt, Keep
}

// inPrologEpilog tells whether addr is one of the first two instructions of
// a function range or one of the last two before a return, llvm-profgen's
// estimate of where frame pointers are not set up.
func inPrologEpilog(code Code, sym Symbols, addr uint64) bool {
	if addr == ExternalAddr {
		return false
	}
	if sym.IsFuncStart(addr) {
		return true
	}
	if prev, ok := code.PrevInst(addr); ok && sym.IsFuncStart(prev.Addr) {
		return true
	}
	if k, _ := kindAt(code, addr); k == insn.Return {
		return true
	}
	next, ok := code.NextInst(addr)
	if !ok {
		return false
	}
	k, _ := kindAt(code, next)
	return k == insn.Return
}

// Branches turns perf's branch stack into llvm-profgen's: an end outside
// the binary becomes ExternalAddr, and branches with both ends outside are
// dropped. The result is appended to dst.
func Branches(code Code, lbr []record.Branch, dst []record.Branch) []record.Branch {
	for _, b := range lbr {
		_, srcCode := code.Inst(b.From)
		_, dstCode := code.Inst(b.To)
		switch {
		case !srcCode && !dstCode:
			continue
		case !srcCode:
			b.From = ExternalAddr
		case !dstCode:
			b.To = ExternalAddr
		}
		dst = append(dst, b)
	}
	return dst
}
