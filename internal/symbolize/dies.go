package symbolize

import (
	"bytes"
	"debug/dwarf"
	"encoding/binary"
	"errors"

	"github.com/profgen/profgen/internal/leb128"
)

// Reading a unit's DIEs without debug/dwarf: its Reader decodes every
// attribute of every DIE into a new Entry, and the DIEs of a large unit are
// mostly parameters, variables and types the loader never looks at. The
// loader needs each DIE's tag, offset and whether it has children, and of
// subprograms and inlined subroutines a dozen attributes. dieReader
// decodes those, as debug/dwarf would give them (the same Go types and
// classes, so that loader code and dwarf.Data.Ranges take them as they
// are), and skips every other attribute by its form's size.
//
// It reads DWARF 4 and 5 units whose abbreviations use only forms it
// knows: other units go through debug/dwarf. The indexed forms of DWARF 5
// (addrx, strx, rnglistx, as clang uses them) are read through the unit
// DIE's DW_AT_addr_base, DW_AT_str_offsets_base and DW_AT_rnglists_base,
// as debug/dwarf reads them. The DIEs' ranges are read as
// dwarf.Data.Ranges reads them (ranges). A read error is kept (sticky)
// and ends the DIEs.

// dieAttrs are the attributes the loader reads (load.go: recordDecl,
// addSubroutine and the ranges).
var dieAttrs = map[dwarf.Attr]bool{
	dwarf.AttrName: true, dwarf.AttrLinkageName: true, attrMIPSLinkageName: true,
	dwarf.AttrDeclLine: true, dwarf.AttrDeclFile: true,
	dwarf.AttrAbstractOrigin: true, dwarf.AttrSpecification: true,
	dwarf.AttrTrampoline: true, dwarf.AttrCallLine: true, dwarf.AttrCallColumn: true, attrGNUDiscriminator: true,
	dwarf.AttrLowpc: true, dwarf.AttrHighpc: true, dwarf.AttrRanges: true,
}

// DWARF forms (DWARF 5, section 7.5.6).
const (
	formAddr          = 0x01
	formBlock2        = 0x03
	formBlock4        = 0x04
	formData2         = 0x05
	formData4         = 0x06
	formData8         = 0x07
	formString        = 0x08
	formBlock         = 0x09
	formBlock1        = 0x0a
	formData1         = 0x0b
	formFlag          = 0x0c
	formSdata         = 0x0d
	formStrp          = 0x0e
	formUdata         = 0x0f
	formRefAddr       = 0x10
	formRef1          = 0x11
	formRef2          = 0x12
	formRef4          = 0x13
	formRef8          = 0x14
	formRefUdata      = 0x15
	formSecOffset     = 0x17
	formExprloc       = 0x18
	formFlagPresent   = 0x19
	formStrx          = 0x1a
	formAddrx         = 0x1b
	formRefSup4       = 0x1c
	formStrpSup       = 0x1d
	formData16        = 0x1e
	formLineStrp      = 0x1f
	formRefSig8       = 0x20
	formImplicitConst = 0x21
	formLoclistx      = 0x22
	formRnglistx      = 0x23
	formRefSup8       = 0x24
	formStrx1         = 0x25
	formStrx2         = 0x26
	formStrx3         = 0x27
	formStrx4         = 0x28
	formAddrx1        = 0x29
	formAddrx2        = 0x2a
	formAddrx3        = 0x2b
	formAddrx4        = 0x2c
)

// dieAbbrev is one abbreviation: a DIE's tag, whether it has children, and
// its attributes in order.
type dieAbbrev struct {
	tag      dwarf.Tag
	children bool
	attrs    []dieAttr
	wanted   bool // a subprogram or inlined subroutine: its dieAttrs are decoded
}

type dieAttr struct {
	attr  dwarf.Attr
	form  uint64
	value int64 // DW_FORM_implicit_const
	want  bool
}

var errDIE = errors.New("malformed DIE")

// dieSections are the sections a unit's DIEs are read with.
type dieSections struct {
	info, abbrev, str, lineStr, addr []byte
	strOffsets                       []byte // DWARF 5: .debug_str_offsets
	rnglists, ranges                 []byte // DWARF 5 and 4 range lists
	line                             []byte // .debug_line, for the sizes of line tables
}

// readDIESections gets the sections with section (Options.Section); nil
// without .debug_info and .debug_abbrev.
func readDIESections(section func(string) ([]byte, error)) *dieSections {
	if section == nil {
		return nil
	}
	var s dieSections
	for _, sec := range []struct {
		name string
		data *[]byte
	}{{".debug_info", &s.info}, {".debug_abbrev", &s.abbrev}, {".debug_str", &s.str}, {".debug_line_str", &s.lineStr},
		{".debug_addr", &s.addr}, {".debug_str_offsets", &s.strOffsets}, {".debug_rnglists", &s.rnglists}, {".debug_ranges", &s.ranges}, {".debug_line", &s.line}} {
		b, err := section(sec.name)
		if err != nil {
			return nil
		}
		*sec.data = b
	}
	if s.info == nil || s.abbrev == nil {
		return nil
	}
	return &s
}

// dieReader reads the DIEs of one unit after its unit DIE. Next returns
// an Entry that the following call reuses.
type dieReader struct {
	s        *dieSections
	data     []byte       // the unit, from its header on
	unit     dwarf.Offset // .debug_info offset of data[0]
	pos      int
	version  int
	offSize  int
	addrSize int
	abbrevs  abbrevTable
	// lists reads the unit's range lists and, from its DW_AT_addr_base on,
	// its addresses (DW_FORM_addrx).
	lists rangeLists
	// strBase and rnglistsBase are the unit's DW_AT_str_offsets_base and
	// DW_AT_rnglists_base (DWARF 5; 0 before, as debug/dwarf has them).
	strBase, rnglistsBase uint64
	entry                 dwarf.Entry
	rangeBuf              [][2]uint64 // the ranges returned last (ranges)
	err                   error
}

// newDIEReader returns a reader of the unit whose header is at start of
// s.info, positioned after its unit DIE; false when the unit is one
// dieReader does not read (see above).
func newDIEReader(s *dieSections, start uint64, abbrevs map[uint64]abbrevTable) (*dieReader, bool) {
	r := &dieReader{s: s, unit: dwarf.Offset(start)}
	abbrevOff, ok := r.header(start)
	if !ok || !r.readAbbrevs(abbrevs, abbrevOff) {
		return nil, false
	}
	if !r.unitDIE() {
		return nil, false
	}
	return r, true
}

// unitDIE reads the unit DIE, keeping its DW_AT_addr_base,
// DW_AT_str_offsets_base, DW_AT_rnglists_base and its base address as
// debug/dwarf does: the base address is read once the bases are known.
func (r *dieReader) unitDIE() bool {
	a := r.abbrevs.at(r.uleb())
	if a == nil || a.tag == 0 {
		return false
	}
	start := r.pos
	addrBase := r.unitBase(a, dwarf.AttrAddrBase)
	r.pos = start
	r.strBase = r.unitBase(a, dwarf.AttrStrOffsetsBase)
	r.pos = start
	r.rnglistsBase = r.unitBase(a, dwarf.AttrRnglistsBase)
	r.lists = rangeLists{rnglists: r.s.rnglists, ranges: r.s.ranges, addr: tail(r.s.addr, addrBase), asize: r.addrSize}
	r.pos = start
	if entry, ok := r.unitAttr(a, dwarf.AttrEntrypc).(uint64); ok {
		r.lists.base = entry
	} else {
		r.pos = start
		r.lists.base, _ = r.unitAttr(a, dwarf.AttrLowpc).(uint64)
	}
	return r.err == nil
}

// unitBase is the unit DIE's base attr (DW_FORM_sec_offset), which
// debug/dwarf takes in DWARF 5 units only; 0 without it.
func (r *dieReader) unitBase(a *dieAbbrev, attr dwarf.Attr) uint64 {
	base, ok := r.unitAttr(a, attr).(int64)
	if !ok || r.version < 5 {
		return 0
	}
	return uint64(base)
}

// unitAttr reads the attributes of the DIE at pos, whose abbreviation is
// a, and returns the value of attr (nil when absent, or of a form not
// read).
func (r *dieReader) unitAttr(a *dieAbbrev, attr dwarf.Attr) any {
	var v any
	for _, at := range a.attrs {
		if at.attr != attr || !r.reads(dieAttr{form: at.form, want: true}) {
			r.skip(at.form)
			continue
		}
		v = r.value(at).Val
	}
	return v
}

// header reads the unit header at start, sets data to the unit and
// returns the offset of its abbreviation table.
func (r *dieReader) header(start uint64) (uint64, bool) {
	info := r.s.info
	if start+4 > uint64(len(info)) {
		return 0, false
	}
	length, lenSize := uint64(binary.LittleEndian.Uint32(info[start:])), uint64(4)
	r.offSize = 4
	if length == 0xffffffff {
		if start+12 > uint64(len(info)) {
			return 0, false
		}
		length, lenSize, r.offSize = binary.LittleEndian.Uint64(info[start+4:]), 12, 8
	}
	end := start + lenSize + length
	if end < start || end > uint64(len(info)) || length < 2 {
		return 0, false
	}
	r.data = info[start:end]
	r.pos = int(lenSize)
	r.version = int(r.u16())
	var abbrevOff uint64
	switch r.version {
	case 4:
		abbrevOff = r.offset()
		r.addrSize = int(r.u8())
	case 5:
		if unitType := r.u8(); unitType != utCompile && unitType != utPartial {
			return 0, false
		}
		r.addrSize = int(r.u8())
		abbrevOff = r.offset()
	default:
		return 0, false
	}
	r.entry.Field = make([]dwarf.Field, 0, 8)
	return abbrevOff, r.err == nil && (r.addrSize == 4 || r.addrSize == 8)
}

// readAbbrevs reads the unit's abbreviation table, at off (once per table:
// tables holds them by offset), and checks its forms.
func (r *dieReader) readAbbrevs(tables map[uint64]abbrevTable, off uint64) bool {
	t, ok := tables[off]
	if !ok {
		t = parseAbbrevs(r.s.abbrev, off)
		tables[off] = t
	}
	if t == nil {
		return false
	}
	for _, a := range t {
		if a == nil {
			continue
		}
		for _, at := range a.attrs {
			if !r.reads(at) {
				return false
			}
		}
	}
	r.abbrevs = t
	return true
}

// abbrevTable holds the abbreviations of a table by code. Compilers
// number them from 1 up, so that a slice indexed by code holds them.
type abbrevTable []*dieAbbrev

// at returns the abbreviation of code, nil when none.
func (t abbrevTable) at(code uint64) *dieAbbrev {
	if code < uint64(len(t)) {
		return t[code]
	}
	return nil
}

// add sets the abbreviation of code; false when code is too far past
// the codes before it for a slice to hold them.
func (t *abbrevTable) add(code uint64, a *dieAbbrev) bool {
	if code >= uint64(len(*t)) {
		if code > 2*uint64(len(*t))+1024 {
			return false
		}
		*t = append(*t, make(abbrevTable, code+1-uint64(len(*t)))...)
	}
	(*t)[code] = a
	return true
}

// parseAbbrevs reads the abbreviation table at off; nil when malformed,
// or numbered too sparsely for an abbrevTable (debug/dwarf reads the
// unit then).
func parseAbbrevs(b []byte, off uint64) abbrevTable {
	if off >= uint64(len(b)) {
		return nil
	}
	p := &dieReader{data: b, pos: int(off)}
	t := abbrevTable{}
	for {
		code := p.uleb()
		if code == 0 || p.err != nil {
			break
		}
		a := &dieAbbrev{tag: dwarf.Tag(p.uleb()), children: p.u8() != 0}
		a.wanted = a.tag == dwarf.TagSubprogram || a.tag == dwarf.TagInlinedSubroutine
		for p.err == nil {
			at := dieAttr{attr: dwarf.Attr(p.uleb()), form: p.uleb()}
			if at.form == formImplicitConst {
				at.value = p.sleb()
			}
			if at.attr == 0 && at.form == 0 {
				break
			}
			at.want = a.wanted && dieAttrs[at.attr]
			a.attrs = append(a.attrs, at)
		}
		if !t.add(code, a) {
			return nil
		}
	}
	if p.err != nil {
		return nil
	}
	return t
}

// reads reports whether the reader skips, or when wanted decodes, an
// attribute of this form.
func (r *dieReader) reads(at dieAttr) bool {
	switch at.form {
	case formAddr, formData1, formData2, formData4, formData8, formSdata, formUdata, formImplicitConst,
		formString, formFlag, formFlagPresent,
		formRef1, formRef2, formRef4, formRef8, formRefUdata, formRefAddr, formSecOffset:
		return true
	case formStrp:
		return !at.want || r.s.str != nil
	case formLineStrp:
		return !at.want || r.s.lineStr != nil
	case formAddrx, formAddrx1, formAddrx2, formAddrx3, formAddrx4:
		return !at.want || r.s.addr != nil
	case formStrx, formStrx1, formStrx2, formStrx3, formStrx4:
		return !at.want || r.s.str != nil && r.s.strOffsets != nil
	case formRnglistx:
		return !at.want || r.s.rnglists != nil
	case formBlock1, formBlock2, formBlock4, formBlock, formExprloc, formData16, formRefSig8,
		formLoclistx, formRefSup4, formRefSup8, formStrpSup:
		return !at.want
	}
	return false
}

// Next returns the next DIE (Tag 0 for the null entry that ends a list of
// children), nil at the end of the unit.
func (r *dieReader) Next() (*dwarf.Entry, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.pos >= len(r.data) {
		return nil, nil
	}
	e := &r.entry
	e.Offset = r.unit + dwarf.Offset(r.pos)
	e.Field = e.Field[:0]
	code := r.uleb()
	if code == 0 {
		e.Tag, e.Children = 0, false
		return e, r.err
	}
	a := r.abbrevs.at(code)
	if a == nil {
		r.err = errDIE
		return nil, r.err
	}
	e.Tag, e.Children = a.tag, a.children
	for _, at := range a.attrs {
		if at.want {
			e.Field = append(e.Field, r.value(at))
		} else {
			r.skip(at.form)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return e, nil
}

// value decodes an attribute as debug/dwarf does (DWARF 4 and 5).
func (r *dieReader) value(at dieAttr) dwarf.Field {
	f := dwarf.Field{Attr: at.attr}
	switch at.form {
	case formAddr:
		f.Val, f.Class = r.addr(), dwarf.ClassAddress
	case formData1:
		f.Val, f.Class = int64(r.u8()), dwarf.ClassConstant
	case formData2:
		f.Val, f.Class = int64(r.u16()), dwarf.ClassConstant
	case formData4:
		f.Val, f.Class = int64(r.u32()), dwarf.ClassConstant
	case formData8:
		f.Val, f.Class = int64(r.u64()), dwarf.ClassConstant
	case formSdata:
		f.Val, f.Class = r.sleb(), dwarf.ClassConstant
	case formUdata:
		f.Val, f.Class = int64(r.uleb()), dwarf.ClassConstant
	case formImplicitConst:
		f.Val, f.Class = at.value, dwarf.ClassConstant
	case formString:
		f.Val, f.Class = r.cstring(), dwarf.ClassString
	case formStrp:
		f.Val, f.Class = r.strAt(r.s.str, r.offset()), dwarf.ClassString
	case formLineStrp:
		f.Val, f.Class = r.strAt(r.s.lineStr, r.offset()), dwarf.ClassString
	case formFlag:
		f.Val, f.Class = r.u8() == 1, dwarf.ClassFlag
	case formFlagPresent:
		f.Val, f.Class = true, dwarf.ClassFlag
	case formRef1:
		f.Val, f.Class = dwarf.Offset(r.u8())+r.unit, dwarf.ClassReference
	case formRef2:
		f.Val, f.Class = dwarf.Offset(r.u16())+r.unit, dwarf.ClassReference
	case formRef4:
		f.Val, f.Class = dwarf.Offset(r.u32())+r.unit, dwarf.ClassReference
	case formRef8:
		f.Val, f.Class = dwarf.Offset(r.u64())+r.unit, dwarf.ClassReference
	case formRefUdata:
		f.Val, f.Class = dwarf.Offset(r.uleb())+r.unit, dwarf.ClassReference
	case formRefAddr:
		f.Val, f.Class = dwarf.Offset(r.offset()), dwarf.ClassReference
	case formSecOffset:
		f.Val, f.Class = int64(r.offset()), secOffsetClass(at.attr)
	case formAddrx, formAddrx1, formAddrx2, formAddrx3, formAddrx4:
		f.Val, f.Class = r.addrx(r.index(at.form)), dwarf.ClassAddress
	case formStrx, formStrx1, formStrx2, formStrx3, formStrx4:
		f.Val, f.Class = r.strx(r.index(at.form)), dwarf.ClassString
	case formRnglistx:
		f.Val, f.Class = r.rnglistx(r.uleb()), dwarf.ClassRngList
	}
	return f
}

// index reads the index of an addrx or strx form: ULEB128, or 1 to 4
// bytes.
func (r *dieReader) index(form uint64) uint64 {
	switch form {
	case formAddrx1, formStrx1:
		return uint64(r.u8())
	case formAddrx2, formStrx2:
		return uint64(r.u16())
	case formAddrx3, formStrx3:
		b := r.bytes(3)
		return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16
	case formAddrx4, formStrx4:
		return uint64(r.u32())
	}
	return r.uleb()
}

// addrx is entry idx of the unit's addresses in .debug_addr.
func (r *dieReader) addrx(idx uint64) uint64 {
	var a rangeReader
	v := r.lists.address(idx, &a)
	if a.err != nil {
		r.err = errDIE
	}
	return v
}

// strx is string idx of the unit's .debug_str_offsets entries: the
// string at the offset that entry holds in .debug_str.
func (r *dieReader) strx(idx uint64) string {
	return r.strAt(r.s.str, r.offsetAt(r.s.strOffsets, r.strBase, idx))
}

// rnglistx is the .debug_rnglists offset of range list idx of the unit:
// its offsets table, at the unit's DW_AT_rnglists_base, holds it from
// that base on.
func (r *dieReader) rnglistx(idx uint64) uint64 {
	return r.rnglistsBase + r.offsetAt(r.s.rnglists, r.rnglistsBase, idx)
}

// offsetAt is entry idx of the table of offsets (of the unit's offset
// size) at base of sec.
func (r *dieReader) offsetAt(sec []byte, base, idx uint64) uint64 {
	n := uint64(r.offSize)
	off := base + idx*n
	if idx > uint64(len(sec))/n || off < base || off > uint64(len(sec)) || uint64(len(sec))-off < n {
		r.err = errDIE
		return 0
	}
	if n == 4 {
		return uint64(binary.LittleEndian.Uint32(sec[off:]))
	}
	return binary.LittleEndian.Uint64(sec[off:])
}

// secOffsetClass is debug/dwarf's class of a DW_FORM_sec_offset
// attribute, for those the loader reads.
func secOffsetClass(a dwarf.Attr) dwarf.Class {
	if a == dwarf.AttrRanges {
		return dwarf.ClassRangeListPtr
	}
	return dwarf.ClassUnknown
}

// skip skips a value of the form.
func (r *dieReader) skip(form uint64) {
	switch form {
	case formFlagPresent, formImplicitConst:
	case formData1, formRef1, formFlag, formStrx1, formAddrx1:
		r.pos++
	case formData2, formRef2, formStrx2, formAddrx2:
		r.pos += 2
	case formStrx3, formAddrx3:
		r.pos += 3
	case formData4, formRef4, formRefSup4, formStrx4, formAddrx4:
		r.pos += 4
	case formData8, formRef8, formRefSig8, formRefSup8:
		r.pos += 8
	case formData16:
		r.pos += 16
	case formAddr:
		r.pos += r.addrSize
	case formStrp, formLineStrp, formSecOffset, formRefAddr, formStrpSup:
		r.pos += r.offSize
	case formSdata, formUdata, formRefUdata, formStrx, formAddrx, formLoclistx, formRnglistx:
		r.uleb()
	case formString:
		r.cstring()
	case formBlock1:
		r.pos += int(r.u8())
	case formBlock2:
		r.pos += int(r.u16())
	case formBlock4:
		r.pos += int(r.u32())
	case formBlock, formExprloc:
		r.pos += int(r.uleb())
	default:
		r.err = errDIE
	}
	if r.pos > len(r.data) || r.pos < 0 {
		r.err = errDIE
	}
}

// The readers of fixed-size values, LEB128 numbers and strings; past the
// end of the data they read 0 and keep errDIE.

func (r *dieReader) bytes(n int) []byte {
	if r.err != nil || n > len(r.data)-r.pos {
		r.err = errDIE
		r.pos = len(r.data)
		return make([]byte, n)
	}
	b := r.data[r.pos : r.pos+n]
	r.pos += n
	return b
}

func (r *dieReader) u8() uint8   { return r.bytes(1)[0] }
func (r *dieReader) u16() uint16 { return binary.LittleEndian.Uint16(r.bytes(2)) }
func (r *dieReader) u32() uint32 { return binary.LittleEndian.Uint32(r.bytes(4)) }
func (r *dieReader) u64() uint64 { return binary.LittleEndian.Uint64(r.bytes(8)) }

func (r *dieReader) addr() uint64 {
	if r.addrSize == 4 {
		return uint64(r.u32())
	}
	return r.u64()
}

func (r *dieReader) offset() uint64 {
	if r.offSize == 4 {
		return uint64(r.u32())
	}
	return r.u64()
}

func (r *dieReader) uleb() uint64 { return dieLEB128(r, leb128.Uint) }
func (r *dieReader) sleb() int64  { return dieLEB128(r, leb128.Int) }

// dieLEB128 reads a LEB128 number as debug/dwarf does (bits past the 64th
// lost); past the end of the data, as the other readers, 0 and errDIE.
func dieLEB128[T uint64 | int64](r *dieReader, decode func([]byte) (T, int)) T {
	if r.err == nil && r.pos <= len(r.data) {
		v, n := decode(r.data[r.pos:])
		if n > 0 {
			r.pos += n
			return v
		}
	}
	r.pastEnd()
	return 0
}

// pastEnd moves the reader to the end of its data, with errDIE.
func (r *dieReader) pastEnd() {
	r.err = errDIE
	r.pos = len(r.data)
}

func (r *dieReader) cstring() string {
	if r.err != nil {
		return ""
	}
	i := bytes.IndexByte(r.data[r.pos:], 0)
	if i < 0 {
		r.err = errDIE
		r.pos = len(r.data)
		return ""
	}
	s := string(r.data[r.pos : r.pos+i])
	r.pos += i + 1
	return s
}

// strAt is the NUL-terminated string at off of a string section.
func (r *dieReader) strAt(sec []byte, off uint64) string {
	if off >= uint64(len(sec)) {
		r.err = errDIE
		return ""
	}
	i := bytes.IndexByte(sec[off:], 0)
	if i < 0 {
		r.err = errDIE
		return ""
	}
	return string(sec[off : off+uint64(i)])
}

// ranges is dwarf.Data.Ranges for a DIE that the reader returned: its
// low and high pc, then its range list, from the unit's base address.
// The ranges are valid until the next call: they are kept in a buffer
// reused from DIE to DIE.
func (r *dieReader) ranges(e *dwarf.Entry) ([][2]uint64, error) {
	ret := r.rangeBuf[:0]
	defer func() { r.rangeBuf = ret[:0] }()
	low, lowOK := e.Val(dwarf.AttrLowpc).(uint64)
	var high uint64
	var highOK bool
	if f := e.AttrField(dwarf.AttrHighpc); f != nil {
		switch f.Class {
		case dwarf.ClassAddress:
			high, highOK = f.Val.(uint64)
		case dwarf.ClassConstant:
			off, ok := f.Val.(int64)
			high, highOK = low+uint64(off), ok
		}
	}
	if lowOK && highOK {
		ret = append(ret, [2]uint64{low, high})
	}
	off, list := r.rangeList(e)
	if list != nil {
		var err error
		if ret, err = list(ret, off); err != nil {
			return nil, err
		}
	}
	if len(ret) == 0 {
		return nil, nil
	}
	return ret, nil
}

// rangeList is the offset of e's DW_AT_ranges list and the reader of that
// list (nil without one): in DWARF 5 a section offset or a resolved
// DW_FORM_rnglistx, in .debug_rnglists; before, a section offset in
// .debug_ranges.
func (r *dieReader) rangeList(e *dwarf.Entry) (uint64, func([][2]uint64, uint64) ([][2]uint64, error)) {
	f := e.AttrField(dwarf.AttrRanges)
	if f == nil {
		return 0, nil
	}
	if r.version >= 5 && r.s.rnglists != nil {
		switch v := f.Val.(type) {
		case int64:
			if f.Class == dwarf.ClassRangeListPtr {
				return uint64(v), r.lists.appendList5
			}
		case uint64:
			if f.Class == dwarf.ClassRngList {
				return v, r.lists.appendList5
			}
		}
		return 0, nil
	}
	if v, ok := f.Val.(int64); ok && r.s.ranges != nil {
		return uint64(v), r.lists.appendList4
	}
	return 0, nil
}
