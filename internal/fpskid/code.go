package fpskid

import (
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/binary/insn"
	"github.com/profgen/profgen/internal/slab"
)

// code answers what the repair asks about one x86-64 binary: the
// functions around addresses, their frame setup and their call sites.
// Functions are decoded on first use.
type code struct {
	f     *binary.File
	funcs map[uint64]*function // by entry
	plt   map[uint64]bool      // PLT stub entries
	// walkFuncs are the functions as decode sees them, in address order,
	// and walkEnds the highest end up to each; made on first use.
	walkFuncs []function
	walkEnds  []uint64
	// freeInsts is what is left of the chunk that decode appends the
	// instructions of functions to, and frameSlab holds their frame
	// states: one allocation for many functions.
	freeInsts []inst
	frameSlab slab.Slab[frameState]
	blockSlab slab.Slab[int32]
	work      []int32 // frameStates' work list, reused
	// seen counts, by callee entry and call site, the calls seen in
	// stacks that needed no repair.
	seen    map[uint64]map[uint64]uint64
	guesses map[guessKey]*guess
	paths   map[pathQuestion]pathAnswer // pathTo's answers
	// goFrames, for a Go binary, tells frames set up without decoding.
	goFrames *goFrames
}

// function is one function (an ELF function symbol) as decoded.
type function struct {
	entry, end uint64
	insts      []inst
	// blocks[b] is the index of the first instruction at or after
	// entry + b*instBlock: where instAt starts looking.
	blocks     []int32
	sites      []site       // computed from insts on first use (callSites)
	frames     []frameState // per instruction, computed on first use
	decoded    bool         // insts is set
	sitesFound bool         // sites is set
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
	var i inst
	i.set(in, b)
	return i
}

// set makes i the inst of in, whose bytes are b. It writes the fields one
// by one: decode sets its instructions in place, where a struct built
// field by field and then copied whole would be read back before its
// bytes are stored (a store-forwarding stall on each instruction).
func (i *inst) set(in binary.Inst, b []byte) {
	i.addr, i.size, i.kind, i.frame = in.Addr, uint8(in.Size), in.Kind, x86FrameOp(b)
	i.rel, i.direct = 0, false
	if in.Kind == insn.Call || in.Kind == insn.Jump || in.Kind == insn.CondBranch {
		t, direct := x86Target(b, in.End())
		i.rel, i.direct = int32(t-in.End()), direct
	}
}

// branches reports whether i is a call, a jump or a conditional branch.
func (i inst) branches() bool {
	return i.kind == insn.Call || i.kind == insn.Jump || i.kind == insn.CondBranch
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
	// calledFound tells that called is the function holding target
	// (calledBy).
	calledFound bool
	called      *function
}

func newCode(f *binary.File) *code {
	c := &code{f: f, funcs: map[uint64]*function{}, plt: map[uint64]bool{}, goFrames: newGoFrames(f)}
	c.frameSlab.Chunk, c.blockSlab.Chunk = decodeChunk, decodeChunk
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

// decode decodes the instructions of fn, in address order.
func (c *code) decode(fn *function) {
	fn.decoded = true
	if cap(c.freeInsts) < decodeChunk/8 {
		c.freeInsts = make([]inst, 0, decodeChunk)
	}
	insts := c.freeInsts
	if size := fn.end - fn.entry; size > 0 && size <= maxFuncSize {
		for in, b := range c.f.Decode(fn.entry, fn.end) {
			if in.End() > fn.end {
				break
			}
			insts = append(insts, inst{})
			insts[len(insts)-1].set(in, b)
		}
	}
	// (append moved a function longer than what was left to a larger
	// array, whose rest is left now.)
	fn.insts, c.freeInsts = insts[:len(insts):len(insts)], insts[len(insts):]
	fn.blocks = c.blockStarts(fn)
}

// instBlock is the span of the code that function.blocks indexes by.
const instBlock = 32

// blockStarts returns the blocks of fn, whose instructions are decoded.
func (c *code) blockStarts(fn *function) []int32 {
	if len(fn.insts) == 0 {
		return nil
	}
	blocks := c.blockSlab.Make(int((fn.end-fn.entry)/instBlock) + 1)
	j := 0
	for b := range blocks {
		for start := fn.entry + uint64(b)*instBlock; j < len(fn.insts) && fn.insts[j].addr < start; {
			j++
		}
		blocks[b] = int32(j)
	}
	return blocks
}

// decodeChunk is the number of instructions (and of frame states) that
// decode and frameStates allocate at once; decode starts a new chunk
// when less than an eighth is left.
const decodeChunk = 1 << 16

// callSites returns the call sites of fn (nil for nil) in address order,
// decoding it on first use.
func (c *code) callSites(fn *function) []site {
	if fn == nil {
		return nil
	}
	if !fn.decoded {
		c.decode(fn)
	}
	if !fn.sitesFound {
		fn.sitesFound = true
		for _, i := range fn.insts {
			if !i.branches() {
				continue // most are not: siteOf's result is not made for them
			}
			if s, ok := c.siteOf(fn, i); ok {
				fn.sites = append(fn.sites, s)
			}
		}
	}
	return fn.sites
}

// maxFuncSize bounds the function read whole for decoding.
const maxFuncSize = 64 << 20

// siteOf returns the call site that i is: a call, or a direct jump to
// the entry of another function (a tail call).
func (c *code) siteOf(fn *function, i inst) (site, bool) {
	switch i.kind {
	case insn.Call:
	case insn.Jump, insn.CondBranch:
		t := i.target()
		if !i.direct || t >= fn.entry && t < fn.end || !c.plt[t] && !c.isEntry(t) {
			return site{}, false
		}
	default:
		return site{}, false
	}
	return site{at: i.end() - 1, target: i.target(), indirect: !i.direct}, true
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

// instAt returns the index of the instruction holding addr, or -1. Inside
// the function it starts at the first instruction of addr's block and
// reads on: a binary search would read a cache line for each halving of
// a large function's instructions.
func (fn *function) instAt(addr uint64) int {
	if addr < fn.entry || addr >= fn.end || fn.blocks == nil {
		return fn.searchInst(addr)
	}
	j := int(fn.blocks[(addr-fn.entry)/instBlock])
	for j < len(fn.insts) && fn.insts[j].addr <= addr {
		j++
	}
	return j - 1
}

// searchInst is instAt by binary search.
func (fn *function) searchInst(addr uint64) int {
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

// leafEstablished reports whether the frame of fn, holding addr, is set
// up when the instruction at addr is about to run: from the pclntab for Go
// code, else decoding fn.
func (c *code) leafEstablished(fn *function, addr uint64) bool {
	if c.goFrames != nil {
		if set, ok := c.goFrames.established(addr); ok {
			return set
		}
	}
	return c.established(fn, addr)
}

// established reports whether the frame of fn is set up when the
// instruction at addr is about to run: after push %rbp; mov %rsp,%rbp and
// before the pop %rbp (or leave) of an epilogue. It decodes fn on first
// use.
func (c *code) established(fn *function, addr uint64) bool {
	if !fn.decoded {
		c.decode(fn)
	}
	i := fn.instAt(addr)
	if i < 0 || fn.insts[i].addr != addr {
		return true // not an instruction start: nothing to tell
	}
	if fn.frames == nil {
		fn.frames = c.frameStates(fn)
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
func (c *code) frameStates(fn *function) []frameState {
	insts := fn.insts
	states := c.frameSlab.Make(len(insts))
	if len(insts) == 0 {
		return states
	}
	states[0] = frameNone
	work := append(c.work[:0], 0)
	for len(work) > 0 {
		i := int(work[len(work)-1])
		work = work[:len(work)-1]
		in := insts[i]
		out := after(in, states[i])
		if fallsThrough(in) && i+1 < len(insts) {
			work = flowInto(states, work, i+1, out)
		}
		if j := fn.branchInside(in); j >= 0 {
			work = flowInto(states, work, j, out)
		}
	}
	c.work = work
	return states
}

// flowInto merges state s into the state before instruction j, adding j
// to the work list when that changes it. The entry keeps the caller's
// frame: a jump back to it (Go's stack growth, a tail call to itself)
// comes from where the frame is not set up, if not from code the
// fall-through of a call that does not return reaches.
func flowInto(states []frameState, work []int32, j int, s frameState) []int32 {
	if j == 0 {
		return work
	}
	if next := merge(states[j], s); next != states[j] {
		states[j] = next
		work = append(work, int32(j))
	}
	return work
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

// fallsThrough reports whether the instruction after in can run next.
func fallsThrough(in inst) bool {
	return in.kind != insn.Return && in.kind != insn.Jump && in.kind != insn.IndirectJump
}

// branchInside returns the index of the instruction that in, an
// instruction of fn, branches to directly inside fn, or -1.
func (fn *function) branchInside(in inst) int {
	if !in.direct || in.kind == insn.Call {
		return -1
	}
	t := in.target()
	if t < fn.entry || t >= fn.end {
		return -1
	}
	if j := fn.instAt(t); j >= 0 && fn.insts[j].addr == t {
		return j
	}
	return -1
}
