package main

import "math/rand/v2"

// extVGBase is where valgrind 3.19 places the first shared object (the
// dynamic loader) on amd64; external addresses are moved relative to it.
const extVGBase = 0x4000000

// layout is valgrind's view of the traced process: where it loaded the
// profiled binary.
type layout struct {
	vgBias         uint64 // load bias of the binary under valgrind (0x108000 for a PIE, 0 otherwise)
	mainLo, mainHi uint64 // valgrind addresses spanned by the binary's PT_LOADs
}

func newLayout(b *binaryInfo, vgBias uint64) layout {
	if !b.PIE {
		vgBias = 0
	}
	return layout{vgBias: vgBias, mainLo: vgBias + b.Lo, mainHi: vgBias + b.Hi}
}

func (l *layout) inMain(a uint64) bool { return a >= l.mainLo && a < l.mainHi }

// space is one simulated process's address space: the binary at its own
// load bias, everything else (ld.so, libc) moved by extShift.
type space struct {
	bias     uint64 // load bias of the binary (0 for non-PIE)
	extShift uint64 // added (mod 2^64) to valgrind's external addresses
}

// reloc maps a valgrind address into the simulated process.
func (l *layout) reloc(sp space, a uint64) uint64 {
	if l.inMain(a) {
		return a - l.vgBias + sp.bias
	}
	return a + sp.extShift
}

// newSpace draws an ASLR-like address space: a PIE at 0x55..., 0x56...,
// shared objects at 0x7f....
func newSpace(rng *rand.Rand, pie bool) space {
	var sp space
	if pie {
		sp.bias = 0x550000000000 + rng.Uint64N(1<<28)<<12
	}
	sp.extShift = 0x7f0000000000 + rng.Uint64N(1<<27)<<12 - extVGBase
	return sp
}

// branchClassifier names the kind of each taken branch: by decoding the
// branch instruction when it lies in the binary; for a branch from outside
// (libc), a return when it lands on the return address of a call the
// binary made, else a call (a callback). Its shadow stack of return
// addresses is the call stack of hybrid samples: calls push, returns pop.
type branchClassifier struct {
	lay     *layout
	bin     *binaryInfo
	returns []uint64 // shadow stack of return addresses of the binary's calls
}

const maxShadow = 1 << 14

func (c *branchClassifier) classify(from uint64, size uint32, to uint64) BranchKind {
	if !c.lay.inMain(from) {
		if !c.lay.inMain(to) {
			// A return inside the shared objects to a pushed return address:
			// a callback of the binary that tail-called into libc
			// (qsort -> by_count -> b strcmp@plt) returns from libc.
			c.popTo(to)
			return KindUnknown
		}
		if c.popTo(to) {
			return KindRet
		}
		if to != c.lay.vgBias+c.bin.Entry { // ld.so jumps to _start
			c.push(from + uint64(size)) // a callback: the call's return address
		}
		return KindCall
	}
	k := c.bin.kindAt(from - c.lay.vgBias)
	switch k {
	case KindCall, KindIndCall:
		c.push(from + uint64(size))
	case KindRet:
		c.popTo(to)
	}
	return k
}

// branchesToNext reports whether the binary's instruction at from is an
// unconditional branch, which is taken even to the instruction right
// after it: clang ends a function with a tail call `b next` to the
// function placed next (AArch64), and a trace shows no jump there.
func (c *branchClassifier) branchesToNext(from uint64) bool {
	if !c.lay.inMain(from) {
		return false
	}
	switch c.bin.kindAt(from - c.lay.vgBias) {
	case KindUncond, KindCall, KindInd, KindIndCall, KindRet:
		return true
	}
	return false
}

func (c *branchClassifier) push(ret uint64) {
	if len(c.returns) == maxShadow {
		c.returns = append(c.returns[:0], c.returns[maxShadow/2:]...)
	}
	c.returns = append(c.returns, ret)
}

// callers appends the return addresses of the active calls to dst,
// innermost first, at most maxStack of them.
func (c *branchClassifier) callers(dst []uint64) []uint64 {
	for i := len(c.returns) - 1; i >= 0 && len(dst) < maxStack; i-- {
		dst = append(dst, c.returns[i])
	}
	return dst
}

// popTo pops the shadow stack down to the return address to, if it is one
// of the top entries (longjmp and tail calls skip frames).
func (c *branchClassifier) popTo(to uint64) bool {
	for i := len(c.returns) - 1; i >= 0 && i >= len(c.returns)-8; i-- {
		if c.returns[i] == to {
			c.returns = c.returns[:i]
			return true
		}
	}
	return false
}
