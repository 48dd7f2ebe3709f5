package symbolize

import (
	"slices"

	elfbin "github.com/profgen/profgen/internal/binary"
)

// GoTable symbolizes a Go binary: its Go code from the pclntab
// (binary.GoLines), as the Go runtime's tracebacks do, and the rest (the
// C code of cgo) from DWARF, through the Table it falls back to. The
// frames are the DWARF's (functions, inlining, lines), with what Go's own
// tracebacks add: the files of inlined functions, the start lines Go 1.20's
// DWARF lacks, and as wrappers the functions they leave out
// (FuncIDWrapper: method and ABI wrappers, runtime.deferreturn). And they
// come without reading the DWARF: where it needs the compilation unit of
// an address loaded, the pclntab needs the few hundred bytes of the
// function's tables decoded.
//
// Like Table, a GoTable is used by one goroutine at a time.
type GoTable struct {
	lines    *elfbin.GoLines
	fallback *Table
	funcs    map[int]*goFuncLines // by index in the pclntab, decoded on first use
	last     *goFuncLines         // the function found last, the likeliest next
	// frames are the inline stacks of the addresses prefetched.
	frames map[uint64][]Frame
	// names and files intern the strings of the pclntab, by offset.
	names, files map[uint32]string
}

// goFuncLines is a function of the pclntab with the tables that
// symbolize its addresses decoded.
type goFuncLines struct {
	fn                elfbin.GoFunc
	files, lines, inl elfbin.GoValues
	file              string // the function's own file (ownCode)
}

// NewGo returns the symbolizer of the binary whose pclntab is lines and
// whose DWARF table (for the rest) is fallback.
func NewGo(lines *elfbin.GoLines, fallback *Table) *GoTable {
	return &GoTable{lines: lines, fallback: fallback, funcs: map[int]*goFuncLines{}, frames: map[uint64][]Frame{},
		names: map[uint32]string{}, files: map[uint32]string{}}
}

// FramesOrSymbol returns the inline stack at addr, outermost first,
// appended to dst; outside the Go code, what the fallback Table's
// FramesOrSymbol returns.
func (g *GoTable) FramesOrSymbol(addr uint64, dst []Frame) []Frame {
	if fs, ok := g.frames[addr]; ok {
		return append(dst, fs...)
	}
	fl := g.funcAt(addr)
	if fl == nil {
		return g.fallback.FramesOrSymbol(addr, dst)
	}
	return g.inlineStack(fl, addr, dst)
}

// Prefetch symbolizes the addresses of Go code among addrs, and hands the
// others to the fallback's Prefetch.
func (g *GoTable) Prefetch(addrs []uint64) {
	var rest []uint64
	for _, a := range addrs {
		if _, ok := g.frames[a]; ok {
			continue
		}
		if fl := g.funcAt(a); fl != nil {
			g.frames[a] = g.inlineStack(fl, a, nil)
		} else {
			rest = append(rest, a)
		}
	}
	if len(rest) > 0 {
		g.fallback.Prefetch(rest)
	}
}

// funcAt returns the Go function holding addr, its tables decoded, or
// nil: outside the pclntab, or in a function it has no lines for (the C
// code the linker took in).
func (g *GoTable) funcAt(addr uint64) *goFuncLines {
	if l := g.last; l != nil && addr >= l.fn.Entry && addr < l.fn.End {
		return l
	}
	i, ok := g.lines.FuncIndex(addr)
	if !ok {
		return nil
	}
	fl, ok := g.funcs[i]
	if !ok {
		fl = g.decode(i)
		g.funcs[i] = fl
	}
	if fl != nil {
		g.last = fl
	}
	return fl
}

// decode decodes the tables of function i, nil when it has no lines.
func (g *GoTable) decode(i int) *goFuncLines {
	fn, ok := g.lines.Func(i)
	if !ok {
		return nil
	}
	lines := g.lines.Values(fn, elfbin.GoTableLine)
	if len(lines.End) == 0 {
		return nil
	}
	fl := &goFuncLines{fn: fn, lines: lines, files: g.lines.Values(fn, elfbin.GoTableFile),
		inl: g.lines.Values(fn, elfbin.GoTableInlTree)}
	fl.file = g.file(fl, fl.ownCode())
	return fl
}

// ownCode returns the first address of fl's own code, outside the calls
// inlined into it: where the file is the function's own (the entry may
// be inlined code, in a frameless leaf).
func (fl *goFuncLines) ownCode() uint64 {
	start := fl.fn.Entry
	for i, v := range fl.inl.Value {
		if v < 0 {
			return start
		}
		start = fl.inl.End[i]
	}
	return fl.fn.Entry
}

// maxInlineDepth bounds the walk up an inline tree, which a malformed
// pclntab could make a loop.
const maxInlineDepth = 256

// inlineStack appends the inline stack at pc of fl, outermost first: the calls
// inlined at pc, innermost first, each at the position of pc in it, then
// the function itself at the position of the outermost call. A frame's
// file is the file of its position, where Go keeps the files of inlined
// functions; the function's own is that of its first own code (ownCode),
// for code inlined without an inline tree entry may come from another
// file.
func (g *GoTable) inlineStack(fl *goFuncLines, pc uint64, dst []Frame) []Frame {
	start := len(dst)
	for depth := 0; depth < maxInlineDepth; depth++ {
		call, ok := g.lines.Inlined(fl.fn, fl.inl.At(pc))
		if !ok {
			break
		}
		dst = append(dst, g.frameAt(fl, pc, g.name(call.NameOff), call.StartLine, call.Wrapper))
		pc = call.ParentPC
	}
	outer := g.frameAt(fl, pc, fl.fn.Name, fl.fn.StartLine, fl.fn.Wrapper)
	outer.File = fl.file
	dst = append(dst, outer)
	slices.Reverse(dst[start:])
	return dst
}

// frameAt is the frame of function name at pc of fl.
func (g *GoTable) frameAt(fl *goFuncLines, pc uint64, name string, startLine int32, wrapper bool) Frame {
	return Frame{Func: name, File: g.file(fl, pc), Line: uint32(max(fl.lines.At(pc), 0)),
		StartLine: uint32(max(startLine, 0)), Wrapper: wrapper}
}

// name returns the function name at off, interned.
func (g *GoTable) name(off uint32) string {
	s, ok := g.names[off]
	if !ok {
		s = g.lines.FuncName(off)
		g.names[off] = s
	}
	return s
}

// file returns the name of the file of pc in fl, interned.
func (g *GoTable) file(fl *goFuncLines, pc uint64) string {
	off, ok := g.lines.FileOffset(fl.fn, fl.files.At(pc))
	if !ok {
		return ""
	}
	s, ok := g.files[off]
	if !ok {
		s = g.lines.FileName(off)
		g.files[off] = s
	}
	return s
}
