// Package symbolize maps code addresses of one binary to source frames, the
// way llvm-profgen sees them through LLVM's symbolizer.
//
// In: the DWARF of an ELF file (DWARF 4 or 5, from clang or gcc; with
// -gsplit-dwarf, the split units of its .dwo files or .dwp package: split.go),
// and its ELF function symbols when given (Options.Symbols). Out: for an
// address, the stack of inlined frames, outermost first, each with the
// function's linkage name (for a C++ function gcc gives none, its ELF
// symbol's: symnames.go), its start line (DW_AT_decl_line), the line, the
// discriminator and whether the function is a generated wrapper; and the table of functions (DWARF subprogram ranges) that
// profile generation uses to find function entries and to fill unexecuted
// code with zeros.
//
// All tables are built once and sorted; a lookup is a few binary searches.
package symbolize

import (
	"debug/dwarf"
	"io"
	"slices"
	"sort"
)

// Frame is one level of an inline stack.
type Frame struct {
	Func          string // linkage (mangled) name, or DW_AT_name
	File          string // the function's source file (DW_AT_decl_file), "" when unknown
	Line          uint32 // source line; for an outer frame, the line of the inlined call
	Column        uint32 // source column, as Line; 0 unless the table keeps columns (Options.Columns)
	StartLine     uint32 // DW_AT_decl_line of the function
	Discriminator uint32 // raw DWARF discriminator (line table, or call site)
	// Wrapper marks a compiler-generated wrapper (DW_AT_trampoline, as Go
	// marks method-value and promoted-method wrappers).
	Wrapper bool
}

// LineOffset is the frame's line relative to its function's start line,
// wrapped to 16 bits as LLVM does.
func (f Frame) LineOffset() uint32 {
	return (f.Line - f.StartLine) & 0xffff
}

// Table answers address queries for one binary.
type Table struct {
	subs  []subroutine // DWARF subprograms and inlined subroutines
	segs  []segment    // disjoint address segments, each owned by its innermost subroutine
	lines []lineRow    // all line-table rows, sorted by address
	funcs funcTable    // top-level functions by range
	// recovered are the functions known only from the symbol table
	// (AddSymtabFunctions), by range.
	recovered funcTable
	dwarfHeld *heldStarts // which of recovered DWARF holds after all
	syms      []Symbol    // ELF function symbols by address, for FramesOrSymbol
	// wrappers are the names of Go's generated wrappers.
	wrappers wrapperNames
	lazy     *lazyTables  // when set, the tables above are per unit, loaded on demand
	split    *splitSource // where split units are read from, nil if nowhere
}

// Options tune table construction.
type Options struct {
	// PreferredBase is the binary's preferred load address; function ranges
	// starting below it (code dropped by the linker) are ignored.
	PreferredBase uint64
	// Info reads the .debug_info section (uncompressed). When set, units
	// are loaded on demand (see lazy.go).
	Info io.ReaderAt
	// Split locates the split units of a -gsplit-dwarf binary (split.go);
	// nil: such a binary is refused.
	Split *Split
	// Section returns a section of the file holding the DWARF,
	// uncompressed, nil when it has none. With it, units loaded on demand
	// are read without debug/dwarf where they can be (dies.go).
	Section func(name string) ([]byte, error)
	// Columns keeps the columns of the line tables (Frame.Column), as
	// MemProf's frames need; without it rows that differ only in column
	// are merged, which keeps the tables smaller.
	Columns bool
	// Symbols are the binary's function symbols, local ones included: a
	// C++ function whose DWARF has no linkage name (gcc's, in an
	// anonymous namespace) is named after the mangled name of the symbol
	// at its entry (symnames.go). Nil: functions keep their DWARF names,
	// as LLVM's symbolizer gives them.
	Symbols []Symbol
}

// New builds the tables from the DWARF of the binary (or of its separate
// debug file).
func New(d *dwarf.Data, opts Options) (*Table, error) {
	split := newSplitSource(opts.Split)
	syms := symbolsByAddress(opts.Symbols)
	if z := newLazy(d, opts.Info, opts.PreferredBase, split, opts.Columns); z != nil {
		z.dies = readDIESections(opts.Section)
		z.l.symbols = syms
		return &Table{lazy: z, split: split}, nil
	}
	split.restart()
	l := newLoader(d, split)
	l.columns = opts.Columns
	l.symbols = syms
	l.lineSection = debugLine(opts.Section)
	if err := l.load(); err != nil {
		split.close()
		return nil, err
	}
	t := &Table{subs: l.subs, lines: l.lines, split: split}
	t.segs = flatten(l.intervals)
	sortLineRows(t.lines)
	t.funcs = newFuncTable(l, opts.PreferredBase)
	t.wrappers = l.wrappers
	return t, nil
}

// Split reports how the split units of a -gsplit-dwarf binary were found;
// the zero report for other binaries.
func (t *Table) Split() SplitReport {
	if t.split == nil {
		return SplitReport{}
	}
	return t.split.report
}

// Close releases the DWARF package the table reads split units from. No
// address may be asked about after it.
func (t *Table) Close() {
	t.split.close()
}

// Frames appends the inline stack at addr to dst, outermost frame first, and
// returns it. The result is empty when no DWARF subprogram covers addr (llvm-profgen
// runs LLVM's symbolizer without the ELF symbol table).
func (t *Table) Frames(addr uint64, dst []Frame) []Frame {
	dst = dst[:0]
	segs, lines, subs, wrappers := t.segs, t.lines, t.subs, t.wrappers
	if t.lazy != nil {
		u := t.lazy.unitAt(addr)
		if u == nil {
			return dst
		}
		t.lazy.mu.Lock() // the subroutines grow as units load
		defer t.lazy.mu.Unlock()
		segs, lines, subs, wrappers = u.segs, u.lines, t.lazy.l.subs, t.lazy.l.wrappers
	}
	s := subroutineAt(segs, addr)
	if s < 0 {
		return dst
	}
	row, _ := lineAt(lines, addr)
	dst = inlineChain(subs, wrappers, s, row, dst)
	if dst[0].Func == "" {
		return dst[:0]
	}
	return dst
}

// FramesOrSymbol is Frames, falling back to the ELF function symbol (see
// AddSymbols) that covers addr when no DWARF subprogram does: one frame
// with the symbol's name and no line (perf names PLT stubs and functions
// without debug info the same way).
func (t *Table) FramesOrSymbol(addr uint64, dst []Frame) []Frame {
	if dst = t.Frames(addr, dst); len(dst) > 0 {
		return dst
	}
	i := sort.Search(len(t.syms), func(i int) bool { return t.syms[i].Addr > addr })
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		if s := t.syms[j]; addr < s.Addr+max(s.Size, 1) {
			return append(dst, Frame{Func: s.Name})
		}
	}
	return dst
}

// AddSymbols adds ELF function symbols (sorted by address) for
// FramesOrSymbol.
func (t *Table) AddSymbols(syms []Symbol) {
	t.syms = append(t.syms, syms...)
	sort.SliceStable(t.syms, func(i, j int) bool { return t.syms[i].Addr < t.syms[j].Addr })
}

// inlineChain appends the frames of subroutine s and its inlining callers,
// outermost first. The leaf takes its line from the line table, each caller
// the call line of the callee inlined into it.
func inlineChain(subs []subroutine, wrappers wrapperNames, s int32, row lineRow, dst []Frame) []Frame {
	dst = slices.Grow(dst, chainLength(subs, s))
	line, col, disc := row.line, row.column, row.discriminator
	for ; s >= 0; s = subs[s].parent {
		sub := &subs[s]
		dst = append(dst, Frame{Func: sub.name, File: sub.file, Line: line, Column: col, StartLine: sub.declLine, Discriminator: disc, Wrapper: wrappers.has(sub.name)})
		line, col, disc = sub.callLine, sub.callColumn, sub.callDiscriminator
		if !sub.inlined {
			break
		}
	}
	for i, j := 0, len(dst)-1; i < j; i, j = i+1, j-1 {
		dst[i], dst[j] = dst[j], dst[i]
	}
	return dst
}

// chainLength is the number of frames inlineChain gives for s.
func chainLength(subs []subroutine, s int32) int {
	n := 0
	for ; s >= 0; s = subs[s].parent {
		n++
		if !subs[s].inlined {
			break
		}
	}
	return n
}

// segment is [start, end) of code owned by one subroutine.
type segment struct {
	start, end uint64
	sub        int32
}

func subroutineAt(segs []segment, addr uint64) int32 {
	i := sort.Search(len(segs), func(i int) bool { return segs[i].end > addr })
	if i < len(segs) && segs[i].start <= addr {
		return segs[i].sub
	}
	return -1
}

// debugLine is the .debug_line section, nil when section is nil or fails.
func debugLine(section func(string) ([]byte, error)) []byte {
	if section == nil {
		return nil
	}
	b, _ := section(".debug_line")
	return b
}
