// Package insn holds what every per-architecture instruction decoder of
// package binary reports about an instruction: its control-flow Kind.
//
// In: nothing. Out: the Kind type, shared by binary/x86 and the other
// decoders, so that package binary can index code of any architecture.
package insn

// Kind is what an instruction does to control flow.
type Kind uint8

const (
	Other        Kind = iota // no control transfer
	Call                     // direct or indirect call
	Return                   // return from a call
	Jump                     // direct unconditional jump
	IndirectJump             // unconditional jump through a register or memory
	CondBranch               // conditional branch
)

var kindNames = [...]string{"other", "call", "return", "jump", "indirect-jump", "cond-branch"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// IsUncondBranch reports whether llvm-profgen counts the kind as an
// unconditional branch when it checks that a range is a valid fall-through
// (UncondBranchAddrSet): calls, returns and direct jumps. Indirect jumps are
// not (LLVM's MCInstrDesc::isUnconditionalBranch excludes indirect branches).
func (k Kind) IsUncondBranch() bool { return k == Call || k == Return || k == Jump }

// Decoder decodes the instruction at the start of b. ok is false for bytes
// the architecture's LLVM disassembler does not decode; size is then the
// number of bytes to skip. size is at least 1.
type Decoder func(b []byte) (size int, kind Kind, ok bool)
