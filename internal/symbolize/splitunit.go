package symbolize

import (
	"bytes"
	"debug/dwarf"
	"encoding/binary"
	"errors"

	"github.com/profgen/profgen/internal/leb128"
)

// splitUnit is a split compilation unit made readable by debug/dwarf.
type splitUnit struct {
	d        *dwarf.Data
	entry    dwarf.Offset // the unit's DIE in d
	version  int
	asize    int
	base     uint64 // the skeleton's DW_AT_low_pc
	addr     []byte // the binary's .debug_addr from the skeleton's address base
	ranges   []byte // DWARF 4: the binary's .debug_ranges from the skeleton's ranges base
	rnglists []byte // DWARF 5: the unit's .debug_rnglists.dwo past its header
}

// unitSections returns the parts of the file's sections that hold ref's
// unit: its contributions in a package, the whole sections in a .dwo file.
func (f *dwoFile) unitSections(ref *splitRef) (abbrev, info, strOffsets, rnglists []byte, err error) {
	c := ref.contribs
	if c == nil {
		return f.abbrev, f.info, f.strOffsets, f.rnglists, nil
	}
	ci, okInfo := c[sectInfo]
	ca, okAbbrev := c[sectAbbrev]
	if !okInfo || !okAbbrev {
		return nil, nil, nil, nil, errNoContribution
	}
	info, abbrev = partOf(f.info, ci), partOf(f.abbrev, ca)
	if info == nil || abbrev == nil {
		return nil, nil, nil, nil, errors.New("the package index places the unit outside its sections")
	}
	strOffsets = contributionOf(f.strOffsets, c, sectStrOffsets)
	if f.index.version == 5 {
		rnglists = contributionOf(f.rnglists, c, sectRnglists)
	}
	return abbrev, info, strOffsets, rnglists, nil
}

// unit builds the split unit ref names, with the binary's .debug_addr and
// .debug_ranges (either may be nil while only DWO ids are read).
func (f *dwoFile) unit(ref *splitRef, addr, ranges []byte) (*splitUnit, error) {
	abbrev, info, strOffsets, rnglists, err := f.unitSections(ref)
	if err != nil {
		return nil, err
	}
	hs, ok := readUnitHeaders(bytes.NewReader(info))
	if !ok || len(hs) == 0 {
		return nil, errors.New("malformed unit header in .debug_info.dwo")
	}
	su := &splitUnit{entry: ref.entry, base: ref.skel.base}
	if ref.contribs != nil {
		su.entry = hs[0].entry
	}
	su.version = hs[0].version
	for _, h := range hs {
		if h.entry == su.entry {
			su.version = h.version
		}
	}
	d, err := dwarf.New(gnuFormsAsDWARF5(abbrev), nil, nil, info, nil, nil, nil, f.str)
	if err != nil {
		return nil, err
	}
	if su.version >= 5 {
		strOffsets = skipHeader(strOffsets, 4) // unit length, version, padding
		rnglists = skipHeader(rnglists, 8)     // unit length, version, address and segment selector sizes, offset count
	}
	su.addr = tail(addr, ref.skel.addrBase)
	su.ranges = tail(ranges, ref.skel.rangesBase)
	su.rnglists = rnglists
	for _, s := range []struct {
		name string
		b    []byte
	}{{".debug_str_offsets", strOffsets}, {".debug_addr", su.addr}, {".debug_rnglists", rnglists}} {
		if s.b != nil {
			if err := d.AddSection(s.name, s.b); err != nil {
				return nil, err
			}
		}
	}
	su.d = d
	r := d.Reader()
	r.Seek(su.entry)
	su.asize = r.AddressSize()
	return su, nil
}

// contributionOf is the unit's contribution to section b of kind kind, or
// nil.
func contributionOf(b []byte, c map[uint32]contribution, kind uint32) []byte {
	if cc, ok := c[kind]; ok {
		return partOf(b, cc)
	}
	return nil
}

// skipHeader drops the header of a DWARF 5 table of offsets (string
// offsets, range lists): the unit length (4 bytes, or 12 for 64-bit DWARF)
// and rest more bytes.
func skipHeader(b []byte, rest int) []byte {
	if len(b) < 4 {
		return nil
	}
	n := 4 + rest
	if binary.LittleEndian.Uint32(b) == 0xffffffff {
		n = 12 + rest
	}
	if len(b) < n {
		return nil
	}
	return b[n:]
}

// tail is b from off on, nil when off is past it.
func tail(b []byte, off uint64) []byte {
	if b == nil || off > uint64(len(b)) {
		return nil
	}
	return b[off:]
}

// DWARF forms of split DWARF 4 (GNU), equivalent to DWARF 5's
// DW_FORM_addrx and DW_FORM_strx (the other forms: dies.go).
const (
	formGNUAddrIndex = 0x1f01
	formGNUStrIndex  = 0x1f02
)

// gnuFormsAsDWARF5 returns abbrev with DW_FORM_GNU_addr_index and
// DW_FORM_GNU_str_index replaced by DW_FORM_addrx and DW_FORM_strx, which
// debug/dwarf reads (the values are the same ULEB128 indexes). Both GNU
// forms take two bytes of ULEB128; the replacements are written in two
// bytes too (0x80|form, 0), so that nothing moves. abbrev is copied when
// it has to change.
func gnuFormsAsDWARF5(abbrev []byte) []byte {
	out, copied := abbrev, false
	p := abbrevParser{b: abbrev}
	for !p.done() {
		code := p.uleb()
		if code == 0 { // end of one unit's table; the next may follow
			continue
		}
		p.uleb() // tag
		p.pos++  // children
		for !p.done() {
			attr := p.uleb()
			at := p.pos
			form := p.uleb()
			if attr == 0 && form == 0 {
				break
			}
			if form == formImplicitConst {
				p.uleb() // the constant (SLEB128: the same bytes to skip)
			}
			if (form == formGNUAddrIndex || form == formGNUStrIndex) && p.pos-at == 2 {
				if !copied {
					out, copied = append([]byte(nil), abbrev...), true
				}
				repl := byte(formAddrx)
				if form == formGNUStrIndex {
					repl = formStrx
				}
				out[at], out[at+1] = 0x80|repl, 0
			}
		}
	}
	return out
}

// abbrevParser walks ULEB128 values of an abbreviation table; past the end
// it reads zeros.
type abbrevParser struct {
	b   []byte
	pos int
}

func (p *abbrevParser) done() bool { return p.pos >= len(p.b) }

func (p *abbrevParser) uleb() uint64 {
	if p.pos >= len(p.b) {
		return 0
	}
	v, n := leb128.Uint(p.b[p.pos:])
	if n == 0 {
		n = len(p.b) - p.pos
	}
	p.pos += n
	return v
}

// lists are the range lists of the split unit, read with the skeleton's
// base address and addresses.
func (su *splitUnit) lists() rangeLists {
	return rangeLists{rnglists: su.rnglists, ranges: su.ranges, addr: su.addr, asize: su.asize, base: su.base}
}

// rangesOf returns the address ranges of DIE e of the split unit: its
// range list read with the skeleton's base address, or its low and high
// PC.
func (su *splitUnit) rangesOf(e *dwarf.Entry) ([][2]uint64, error) {
	f := e.AttrField(dwarf.AttrRanges)
	if f == nil {
		return su.d.Ranges(e)
	}
	switch v := f.Val.(type) {
	case int64: // DW_FORM_sec_offset
		if su.version >= 5 {
			return nil, errors.New("DW_AT_ranges of a split unit as a section offset")
		}
		return su.lists().list4(uint64(v))
	case uint64: // DW_FORM_rnglistx, resolved by debug/dwarf
		return su.lists().list5(v)
	}
	return nil, nil
}
