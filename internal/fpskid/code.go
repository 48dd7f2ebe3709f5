package fpskid

import (
	"slices"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
)

// code answers what the repair asks about one x86-64 binary: the
// functions around addresses, their frame setup and their call sites.
// Functions are decoded on first use.
type code struct {
	f     *binary.File
	funcs map[uint64]*function // by entry
	plt   map[uint64]bool      // PLT stub entries
	// walkFuncs are the functions walk decodes, in address order, and
	// walkEnds the highest end up to each; made on first use.
	walkFuncs []*function
	walkEnds  []uint64
	insts     []inst // its instructions, as decoded
	sites     []site // its call sites, as decoded
	// seen counts, by callee entry and call site, the calls seen in
	// stacks that needed no repair.
	seen    map[uint64]map[uint64]uint64
	guesses map[guessKey]*guess
}

// function is one function (an ELF function symbol) as decoded.
type function struct {
	entry, end uint64
	insts      []inst
	sites      []site
	frames     []frameState // per instruction, computed on first use
	decoded    bool         // insts and sites are set
}

// inst is a decoded instruction with what the repair needs of it, in 16
// bytes: a binary's functions hold millions.
type inst struct {
	addr uint64
	// rel is the displacement of a direct branch (its target from its
	// end); direct tells there is one.
	rel    int32
	size   uint8
	kind   insn.Kind
	frame  frameOp
	direct bool
}

// newInst makes the inst of in, whose bytes are b.
func newInst(in binary.Inst, b []byte) inst {
	i := inst{addr: in.Addr, size: uint8(in.Size), kind: in.Kind, frame: x86FrameOp(b)}
	if in.Kind == insn.Call || in.Kind == insn.Jump || in.Kind == insn.CondBranch {
		var t uint64
		t, i.direct = x86Target(b, in.End())
		i.rel = int32(t - in.End())
	}
	return i
}

// end is the address after the instruction.
func (i inst) end() uint64 { return i.addr + uint64(i.size) }

// target is the target of a direct branch.
func (i inst) target() uint64 { return i.end() + uint64(int64(i.rel)) }

// site is a call (or a tail call: a jump to another function's entry).
type site struct {
	at       uint64 // the address of its last byte, as a caller frame's (return address - 1)
	target   uint64 // the function called, when direct
	indirect bool
}

func newCode(f *binary.File) *code {
	c := &code{f: f, funcs: map[uint64]*function{}, plt: map[uint64]bool{}}
	for _, s := range f.PLTSymbols() {
		c.plt[s.Addr] = true
	}
	return c
}

// funcAt returns the function holding addr, decoded, or nil.
func (c *code) funcAt(addr uint64) *function {
	fn := c.symbolAt(addr)
	if fn != nil && !fn.decoded {
		c.decode(fn)
	}
	return fn
}

// symbolAt returns the function holding addr, decoded or not (its entry
// and end are known), or nil.
func (c *code) symbolAt(addr uint64) *function {
	sym, ok := c.f.FuncSymbolAt(addr)
	if !ok {
		return nil
	}
	if fn, ok := c.funcs[sym.Addr]; ok {
		return fn
	}
	fn := &function{entry: sym.Addr, end: sym.Addr + sym.Size}
	c.funcs[sym.Addr] = fn
	return fn
}

// isEntry reports whether addr is the entry of a function.
func (c *code) isEntry(addr uint64) bool {
	sym, ok := c.f.FuncSymbolAt(addr)
	return ok && sym.Addr == addr
}

// decode decodes the instructions and call sites of fn.
func (c *code) decode(fn *function) {
	fn.decoded = true
	insts, sites := c.insts[:0], c.sites[:0]
	c.walk(fn, func(i inst) {
		insts = append(insts, i)
		if s, ok := c.siteOf(fn, i); ok {
			sites = append(sites, s)
		}
	})
	fn.insts, fn.sites = slices.Clone(insts), slices.Clone(sites)
	c.insts, c.sites = insts, sites
}

// walk decodes the instructions of fn in address order.
func (c *code) walk(fn *function, visit func(i inst)) {
	if size := fn.end - fn.entry; size == 0 || size > maxFuncSize {
		return
	}
	for in, b := range c.f.Decode(fn.entry, fn.end) {
		if in.End() > fn.end {
			break
		}
		visit(newInst(in, b))
	}
}

// maxFuncSize bounds the function read whole for decoding.
const maxFuncSize = 64 << 20

// siteOf returns the call site that i is: a call, or a direct jump to
// the entry of another function (a tail call).
func (c *code) siteOf(fn *function, i inst) (site, bool) {
	s := site{at: i.end() - 1, target: i.target(), indirect: !i.direct}
	switch i.kind {
	case insn.Call:
		return s, true
	case insn.Jump, insn.CondBranch:
		inside := s.target >= fn.entry && s.target < fn.end
		return s, i.direct && !inside && (c.plt[s.target] || c.isEntry(s.target))
	}
	return site{}, false
}

// callAt returns the call instruction holding addr (a caller frame's
// return address - 1).
func (c *code) callAt(addr uint64) (inst, bool) {
	fn := c.funcAt(addr)
	if fn == nil {
		return inst{}, false
	}
	i := fn.instAt(addr)
	if i < 0 || fn.insts[i].kind != insn.Call {
		return inst{}, false
	}
	return fn.insts[i], true
}

// instAt returns the index of the instruction holding addr, or -1.
func (fn *function) instAt(addr uint64) int {
	lo, hi := 0, len(fn.insts)
	for lo < hi {
		m := (lo + hi) / 2
		if fn.insts[m].addr <= addr {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// established reports whether the function's own frame is set up when
// the instruction at addr is about to run: after push %rbp; mov %rsp,%rbp
// and before the pop %rbp (or leave) of an epilogue.
func (fn *function) established(addr uint64) bool {
	i := fn.instAt(addr)
	if i < 0 || fn.insts[i].addr != addr {
		return true // not an instruction start: nothing to tell
	}
	if fn.frames == nil {
		fn.frames = frameStates(fn)
	}
	return fn.frames[i] != frameNone && fn.frames[i] != framePushed
}

// frameState is the state of a function's frame before an instruction.
type frameState uint8

const (
	frameUnreached frameState = iota // no direct path from the entry (jump tables): taken as set up
	frameNone                        // the caller's frame pointer
	framePushed                      // after push %rbp
	frameSet                         // after mov %rsp,%rbp
)

// frameStates follows the function's control flow from its entry (direct
// branches inside it, fall-through) and returns the frame state before
// each instruction. Where paths disagree the frame is taken as set up.
func frameStates(fn *function) []frameState {
	states := make([]frameState, len(fn.insts))
	work := []int{0}
	if len(fn.insts) == 0 {
		return states
	}
	states[0] = frameNone
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		out := after(fn.insts[i], states[i])
		succ, n := fn.successors(i)
		for _, j := range succ[:n] {
			if next := merge(states[j], out); next != states[j] {
				states[j] = next
				work = append(work, j)
			}
		}
	}
	return states
}

// after is the frame state after in runs in state s.
func after(in inst, s frameState) frameState {
	switch {
	case in.frame == opPushBP && s == frameNone:
		return framePushed
	case in.frame == opMovSPBP && s == framePushed:
		return frameSet
	case (in.frame == opPopBP || in.frame == opLeave) && s == frameSet:
		return frameNone
	}
	return s
}

func merge(old, in frameState) frameState {
	if old == frameUnreached || old == in {
		return in
	}
	return frameSet
}

// successors returns the indexes of the instructions that can run after
// instruction i inside the function: the first n of succ.
func (fn *function) successors(i int) (succ [2]int, n int) {
	in := fn.insts[i]
	if in.kind != insn.Return && in.kind != insn.Jump && in.kind != insn.IndirectJump && i+1 < len(fn.insts) {
		succ[n] = i + 1
		n++
	}
	if t := in.target(); in.direct && in.kind != insn.Call && t >= fn.entry && t < fn.end {
		if j := fn.instAt(t); j >= 0 && fn.insts[j].addr == t {
			succ[n] = j
			n++
		}
	}
	return succ, n
}
