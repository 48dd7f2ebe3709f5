package binary

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"
)

// GoLines is the pclntab of a Go binary (.gopclntab, the format of Go 1.20
// and later, runtime/symtab.go): the Go functions of its code with their
// names and start lines, and per pc the source file, line, stack pointer
// offset and inline tree index, in varint-coded tables. The Go runtime
// reads it for tracebacks: a lookup is a binary search and the decoding
// of a few hundred bytes, where DWARF needs its compilation unit loaded.
//
// Every read is bounds-checked: a malformed table gives no function or
// no value, never a panic.
type GoLines struct {
	order     binary.ByteOrder
	quantum   uint64
	text      uint64 // runtime.text: function entries are offsets from it
	nfunc     int
	funcnames []byte
	cutab     []byte
	filetab   []byte
	pctab     []byte
	functab   []byte   // nfunc+1 pairs of (entry offset, _func offset)
	entries   []uint32 // the entry offsets of the functab, for the search
	funcs     []byte   // from the functab on: the _func records' offsets are relative to it
	gofunc    []byte   // go:func.*, where the inline trees are
	wrapperID uint8
}

// go120Magic starts the pclntab of Go 1.20 and later
// (internal/abi.Go120PCLnTabMagic).
const go120Magic = 0xfffffff1

// GoFunc is a function of the pclntab.
type GoFunc struct {
	Entry, End uint64 // [Entry, End): up to the next function
	Name       string
	StartLine  int32 // the line of its func keyword
	// Wrapper marks a function the Go compiler generated (a method or
	// method value wrapper, FuncIDWrapper), which tracebacks leave out.
	Wrapper bool
	raw     []byte // the _func record
}

// GoInlined is an entry of a function's inline tree: a call inlined into
// it.
type GoInlined struct {
	NameOff   uint32 // the offset of its name, for FuncName
	StartLine int32
	Wrapper   bool
	// ParentPC is an address whose source position is the call site: its
	// file, line and inline tree index are those of the caller.
	ParentPC uint64
}

// Fields of a _func record (runtime/runtime2.go), as byte offsets.
const (
	funcNameOff   = 4
	funcPCSP      = 16
	funcPCFile    = 20
	funcPCLine    = 24
	funcNPCData   = 28
	funcCUOffset  = 32
	funcStartLine = 36
	funcFuncID    = 40
	funcNFuncData = 43
	funcPCData    = 44
)

// The pcdata and funcdata slots the symbolizer reads
// (internal/abi.PCDATA_InlTreeIndex, FUNCDATA_InlTree).
const (
	pcdataInlTreeIndex = 2
	funcdataInlTree    = 3
	inlinedCallSize    = 16
)

// GoLines returns the pclntab of a Go binary of Go 1.20 or later, nil when
// f has none or lacks the symbols that place it (runtime.text, go:func.*,
// which stripping removes).
func (f *File) GoLines() *GoLines {
	f.goLinesOnce.Do(func() { f.goLines, f.goLinesErr = f.readGoLines() })
	return f.goLines
}

// IsGo reports whether f was linked by Go's toolchain: it has Go's build
// id note or a pclntab, which stripping keeps (GoLines needs the symbol
// table too).
func (f *File) IsGo() bool {
	return f.elf.Section(".note.go.buildid") != nil || f.elf.Section(".gopclntab") != nil
}

// GoLinesErr says why a pclntab that f has could not be read.
func (f *File) GoLinesErr() error {
	f.GoLines()
	return f.goLinesErr
}

func (f *File) readGoLines() (*GoLines, error) {
	sec := f.elf.Section(".gopclntab")
	if sec == nil || f.goText == 0 || f.goFunc == 0 {
		return nil, nil
	}
	pcln, err := f.sectionData(sec, sec.Addr, sec.Size)
	if err != nil {
		return nil, err
	}
	var gofunc []byte
	if s := sectionHolding(f.elf, f.goFunc); s != nil {
		if gofunc, err = f.sectionData(s, f.goFunc, s.Addr+s.Size-f.goFunc); err != nil {
			return nil, err
		}
	}
	t, err := newGoLines(pcln, f.goText, gofunc)
	if err != nil {
		return nil, fmt.Errorf("%s: .gopclntab at offset %#x: %w", f.path, sec.Offset, err)
	}
	return t, nil
}

// goSymbols returns the addresses of runtime.text and go:func.*, 0 when
// they are not among syms.
func goSymbols(syms []elf.Symbol) (text, gofunc uint64) {
	for _, s := range syms {
		switch s.Name {
		case "runtime.text":
			text = s.Value
		case "go:func.*":
			gofunc = s.Value
		}
	}
	return text, gofunc
}

// sectionData returns n bytes of section s from address addr: a slice of
// the mapping when the file is mapped.
func (f *File) sectionData(s *elf.Section, addr, n uint64) ([]byte, error) {
	var buf []byte
	b, err := f.code.sectionBytes(s, addr-s.Addr, n, &buf)
	if err != nil {
		return nil, fmt.Errorf("%s: section %s: %w", f.path, s.Name, err)
	}
	return b, nil
}

// sectionHolding returns the allocated section holding addr, or nil.
func sectionHolding(ef *elf.File, addr uint64) *elf.Section {
	for _, s := range ef.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && s.Type == elf.SHT_PROGBITS && addr >= s.Addr && addr < s.Addr+s.Size {
			return s
		}
	}
	return nil
}

// errGoLines is a pclntab whose header does not hold together.
var errGoLines = errors.New("malformed header")

// newGoLines reads the header of pcln, a pclntab whose functions start
// at text; gofunc holds go:func.*. A pclntab of another Go version gives
// nil and no error.
func newGoLines(pcln []byte, text uint64, gofunc []byte) (*GoLines, error) {
	if len(pcln) < 8+8*8 || pcln[4] != 0 || pcln[5] != 0 || pcln[7] != 8 {
		return nil, nil
	}
	t := &GoLines{order: binary.LittleEndian, quantum: uint64(pcln[6]), text: text, gofunc: gofunc}
	switch {
	case binary.BigEndian.Uint32(pcln) == go120Magic:
		t.order = binary.BigEndian
	case binary.LittleEndian.Uint32(pcln) != go120Magic:
		return nil, nil
	}
	word := func(i int) uint64 { return t.order.Uint64(pcln[8+8*i:]) }
	part := func(i int) []byte {
		if off := word(i); off <= uint64(len(pcln)) {
			return pcln[off:]
		}
		return nil
	}
	t.nfunc = int(min(word(0), uint64(len(pcln))))
	t.funcnames, t.cutab, t.filetab, t.pctab, t.funcs = part(3), part(4), part(5), part(6), part(7)
	if t.quantum == 0 || t.funcs == nil || uint64(len(t.funcs)) < uint64(t.nfunc+1)*8 {
		return nil, errGoLines
	}
	t.functab = t.funcs[:(t.nfunc+1)*8]
	t.entries = make([]uint32, t.nfunc+1)
	for i := range t.entries {
		t.entries[i] = t.order.Uint32(t.functab[8*i:])
	}
	t.wrapperID = t.commonFuncID()
	return t, nil
}

// commonFuncID returns the funcID that marks wrappers: FuncIDWrapper,
// whose number changes from one Go version to the next, is the only one
// that many functions share (each other names one runtime function).
func (t *GoLines) commonFuncID() uint8 {
	var n [256]int
	for i := range t.nfunc {
		if raw, ok := t.funcRecord(i); ok {
			n[raw[funcFuncID]]++
		}
	}
	best := 1
	for id := 2; id < len(n); id++ {
		if n[id] > n[best] {
			best = id
		}
	}
	if n[best] < 2 {
		return 0
	}
	return uint8(best)
}

// entry returns the address of the i'th function of the functab (i =
// nfunc: the end of the last).
func (t *GoLines) entry(i int) uint64 { return t.text + uint64(t.entries[i]) }

// funcRecord returns the _func record of the i'th function.
func (t *GoLines) funcRecord(i int) ([]byte, bool) {
	off := uint64(t.order.Uint32(t.functab[8*i+4:]))
	if off+funcPCData > uint64(len(t.funcs)) {
		return nil, false
	}
	raw := t.funcs[off:]
	n := funcPCData + 4*(uint64(t.u32(raw, funcNPCData))+uint64(raw[funcNFuncData]))
	if n > uint64(len(raw)) {
		return nil, false
	}
	return raw[:n], true
}

func (t *GoLines) u32(b []byte, off uint64) uint32 { return t.order.Uint32(b[off:]) }

// FuncAt returns the function holding pc.
func (t *GoLines) FuncAt(pc uint64) (GoFunc, bool) {
	i, ok := t.FuncIndex(pc)
	if !ok {
		return GoFunc{}, false
	}
	return t.Func(i)
}

// FuncIndex returns the index of the function holding pc, for Func: a
// search that reads no name. A nil GoLines holds none.
func (t *GoLines) FuncIndex(pc uint64) (int, bool) {
	if t == nil || t.nfunc == 0 || pc < t.entry(0) || pc >= t.entry(t.nfunc) {
		return 0, false
	}
	off := pc - t.text
	if off > math.MaxUint32 {
		return 0, false
	}
	i, found := slices.BinarySearch(t.entries[:t.nfunc], uint32(off))
	if !found {
		i--
	}
	return i, true
}

// Func returns function i of the functab.
func (t *GoLines) Func(i int) (GoFunc, bool) {
	raw, ok := t.funcRecord(i)
	if !ok {
		return GoFunc{}, false
	}
	return GoFunc{Entry: t.entry(i), End: t.entry(i + 1), Name: t.FuncName(t.u32(raw, funcNameOff)),
		StartLine: int32(t.u32(raw, funcStartLine)), Wrapper: t.isWrapper(raw[funcFuncID]), raw: raw}, true
}

func (t *GoLines) isWrapper(id uint8) bool { return id != 0 && id == t.wrapperID }

// FuncName returns the name at off in the function name table.
func (t *GoLines) FuncName(off uint32) string { return cString(t.funcnames, uint64(off)) }

// cString returns the NUL-terminated string at off in b, "" when off is
// out of b.
func cString(b []byte, off uint64) string {
	if off >= uint64(len(b)) {
		return ""
	}
	b = b[off:]
	if n := bytes.IndexByte(b, 0); n >= 0 {
		b = b[:n]
	}
	return string(b)
}

// GoTable names one of a function's pc-value tables.
type GoTable uint8

const (
	GoTableSP      GoTable = iota // the stack pointer's offset from its value at entry
	GoTableFile                   // the file index (File)
	GoTableLine                   // the source line
	GoTableInlTree                // the inline tree index (Inlined), -1 outside inlined code
)

// Values decodes a pc-value table of fn: the value before End[i] (and at
// or after End[i-1], from fn.Entry on) is Value[i]. A function without
// the table has none.
func (t *GoLines) Values(fn GoFunc, table GoTable) GoValues {
	off, ok := t.tableOffset(fn, table)
	if !ok || off == 0 || uint64(off) >= uint64(len(t.pctab)) {
		return GoValues{}
	}
	p := t.pctab[off:]
	n := 0
	for range pcSteps(p) {
		n++
	}
	v := GoValues{End: make([]uint64, 0, n), Value: make([]int32, 0, n)}
	pc, val := fn.Entry, int32(-1)
	for pcDelta, valDelta := range pcSteps(p) {
		pc += pcDelta * t.quantum
		val += valDelta
		v.End, v.Value = append(v.End, pc), append(v.Value, val)
	}
	return v
}

// pcSteps yields the steps of the pc-value table p: the pc delta (in
// quanta) and the value delta of each, up to its end.
func pcSteps(p []byte) iter.Seq2[uint64, int32] {
	return func(yield func(uint64, int32) bool) {
		for first := true; ; first = false {
			uvdelta, n := binary.Uvarint(p)
			if n <= 0 || uvdelta == 0 && !first {
				return
			}
			pcdelta, m := binary.Uvarint(p[n:])
			if m <= 0 || !yield(pcdelta, int32(-(uvdelta&1)^uvdelta>>1)) {
				return
			}
			p = p[n+m:]
		}
	}
}

// tableOffset returns where fn's table starts in the pctab.
func (t *GoLines) tableOffset(fn GoFunc, table GoTable) (uint32, bool) {
	switch table {
	case GoTableSP:
		return t.u32(fn.raw, funcPCSP), true
	case GoTableFile:
		return t.u32(fn.raw, funcPCFile), true
	case GoTableLine:
		return t.u32(fn.raw, funcPCLine), true
	}
	if t.u32(fn.raw, funcNPCData) <= pcdataInlTreeIndex {
		return 0, false
	}
	return t.u32(fn.raw, funcPCData+4*pcdataInlTreeIndex), true
}

// GoValues is a decoded pc-value table.
type GoValues struct {
	End   []uint64
	Value []int32
}

// At returns the value at pc, -1 when the table does not cover it.
func (v GoValues) At(pc uint64) int32 {
	i := sort.Search(len(v.End), func(i int) bool { return v.End[i] > pc })
	if i == len(v.End) {
		return -1
	}
	return v.Value[i]
}

// FileOffset returns the offset, for FileName, of the name of file index
// i of fn's compilation unit.
func (t *GoLines) FileOffset(fn GoFunc, i int32) (uint32, bool) {
	if i < 0 {
		return 0, false
	}
	at := 4 * (uint64(t.u32(fn.raw, funcCUOffset)) + uint64(i))
	if at+4 > uint64(len(t.cutab)) {
		return 0, false
	}
	off := t.u32(t.cutab, at)
	return off, off != ^uint32(0)
}

// FileName returns the file name at off in the file table.
func (t *GoLines) FileName(off uint32) string { return cString(t.filetab, uint64(off)) }

// File returns the name of file index i of fn's compilation unit.
func (t *GoLines) File(fn GoFunc, i int32) string {
	if off, ok := t.FileOffset(fn, i); ok {
		return t.FileName(off)
	}
	return ""
}

// Inlined returns entry i of fn's inline tree.
func (t *GoLines) Inlined(fn GoFunc, i int32) (GoInlined, bool) {
	nfuncdata := uint64(fn.raw[funcNFuncData])
	if i < 0 || nfuncdata <= funcdataInlTree {
		return GoInlined{}, false
	}
	tree := t.u32(fn.raw, funcPCData+4*(uint64(t.u32(fn.raw, funcNPCData))+funcdataInlTree))
	at := uint64(tree) + inlinedCallSize*uint64(i)
	if tree == ^uint32(0) || at+inlinedCallSize > uint64(len(t.gofunc)) {
		return GoInlined{}, false
	}
	e := t.gofunc[at : at+inlinedCallSize]
	return GoInlined{NameOff: t.u32(e, 4), StartLine: int32(t.u32(e, 12)), Wrapper: t.isWrapper(e[0]),
		ParentPC: fn.Entry + uint64(int64(int32(t.u32(e, 8))))}, true
}
