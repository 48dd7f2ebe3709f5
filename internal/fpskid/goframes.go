package fpskid

import "github.com/profgen/profgen/internal/binary"

// goFrames tells whether the frame of a Go function is set up at an
// address from the pclntab's stack pointer table (binary.GoLines), the
// table Go's runtime unwinds with, without decoding the function. Go's
// compiler sets up every frame the same way: push %rbp; mov %rsp,%rbp
// right after the stack check, then the rest of the frame; its epilogues
// undo it before each ret. So the frame is set up where the stack pointer
// is at least a word below its value at entry, but at the mov itself.
// Functions laid out otherwise (assembly) are left to the decoder.
type goFrames struct {
	f     *binary.File
	lines *binary.GoLines
	funcs map[int]goFrame // by index in the pclntab
}

// goFrame is what goFrames keeps of a function.
type goFrame struct {
	sp    binary.GoValues
	setAt uint64 // the mov %rsp,%rbp of the prologue; 0 when there is none
}

// newGoFrames returns nil for a binary without a pclntab.
func newGoFrames(f *binary.File) *goFrames {
	lines := f.GoLines()
	if lines == nil {
		return nil
	}
	return &goFrames{f: f, lines: lines, funcs: map[int]goFrame{}}
}

// established reports whether the frame of the Go function holding addr
// is set up when the instruction at addr is about to run; ok is false
// when the pclntab cannot tell.
func (g *goFrames) established(addr uint64) (set, ok bool) {
	i, ok := g.lines.FuncIndex(addr)
	if !ok {
		return false, false
	}
	fr, ok := g.funcs[i]
	if !ok {
		fr = g.frame(i)
		g.funcs[i] = fr
	}
	if fr.setAt == 0 {
		return false, false
	}
	return addr != fr.setAt && fr.sp.At(addr) >= 8, true
}

// frame reads the stack pointer table of function i and finds its
// prologue: where the stack pointer first moves one word down, by a push
// %rbp followed by mov %rsp,%rbp.
func (g *goFrames) frame(i int) goFrame {
	fn, ok := g.lines.Func(i)
	if !ok {
		return goFrame{}
	}
	fr := goFrame{sp: g.lines.Values(fn, binary.GoTableSP)}
	start := fn.Entry
	for j, v := range fr.sp.Value {
		if v == 8 && (j == 0 || fr.sp.Value[j-1] == 0) {
			if g.pushMovAt(start) {
				fr.setAt = start
			}
			break
		}
		start = fr.sp.End[j]
	}
	return fr
}

// pushMovAt reports whether push %rbp ends at addr and mov %rsp,%rbp
// starts there.
func (g *goFrames) pushMovAt(addr uint64) bool {
	var b [4]byte
	if addr == 0 || g.f.ReadCode(addr-1, b[:]) != nil {
		return false
	}
	return b == [4]byte{0x55, 0x48, 0x89, 0xe5}
}
