package fpskid

import "github.com/profgen/profgen/internal/binary/x86"

// frameOp is what an x86-64 instruction does to the frame pointer.
type frameOp uint8

const (
	opNone    frameOp = iota
	opPushBP          // push %rbp
	opMovSPBP         // mov %rsp,%rbp: the frame is established after it
	opPopBP           // pop %rbp: the caller's frame pointer is back
	opLeave           // leave: mov %rbp,%rsp; pop %rbp
)

// x86FrameOp classifies the instruction bytes b.
func x86FrameOp(b []byte) frameOp {
	switch {
	case len(b) == 1 && b[0] == 0x55:
		return opPushBP
	case len(b) == 1 && b[0] == 0x5d:
		return opPopBP
	case len(b) == 1 && b[0] == 0xc9:
		return opLeave
	case len(b) == 3 && b[0] == 0x48 && (b[1] == 0x89 && b[2] == 0xe5 || b[1] == 0x8b && b[2] == 0xec):
		return opMovSPBP
	}
	return opNone
}

// x86Target returns the target of a direct call, jump or conditional
// branch whose bytes are b, at address end - len(b).
func x86Target(b []byte, end uint64) (uint64, bool) { return x86.DirectTarget(b, end) }
