package symbolize

import (
	"errors"
	"fmt"

	"github.com/profgen/profgen/internal/leb128"
)

// rangeLists reads the address range lists of one unit (DWARF 5 section
// 2.17.3): DWARF 5's .debug_rnglists entries, whose indexes address the
// unit's entries of .debug_addr, and DWARF 4's .debug_ranges pairs; both
// from the unit's base address. A split unit's lists (splitunit.go) and a
// unit read by dieReader (dies.go) are read so.
type rangeLists struct {
	rnglists []byte // DWARF 5: where the unit's range list offsets count from
	ranges   []byte // DWARF 4: .debug_ranges
	addr     []byte // the unit's entries of .debug_addr (from its address base)
	asize    int
	base     uint64 // the unit's base address
}

// list4 reads the DWARF 4 range list at off of .debug_ranges.
func (l rangeLists) list4(off uint64) ([][2]uint64, error) { return l.appendList4(nil, off) }

// appendList4 is list4, appending the ranges to out.
func (l rangeLists) appendList4(out [][2]uint64, off uint64) ([][2]uint64, error) {
	r := rangeReader{b: l.ranges, pos: off, asize: l.asize}
	base := l.base
	maxAddr := ^uint64(0) >> (64 - 8*l.asize)
	for {
		lo, hi := r.addr(), r.addr()
		if r.err != nil {
			return nil, r.err
		}
		switch {
		case lo == 0 && hi == 0:
			return out, nil
		case lo == maxAddr:
			base = hi
		default:
			out = append(out, [2]uint64{base + lo, base + hi})
		}
	}
}

// DW_RLE_* range list entry kinds (DWARF 5 section 7.25).
const (
	rleEndOfList    = 0
	rleBaseAddressx = 1
	rleStartxEndx   = 2
	rleStartxLength = 3
	rleOffsetPair   = 4
	rleBaseAddress  = 5
	rleStartEnd     = 6
	rleStartLength  = 7
)

// list5 reads the DWARF 5 range list at off of .debug_rnglists.
func (l rangeLists) list5(off uint64) ([][2]uint64, error) { return l.appendList5(nil, off) }

// appendList5 is list5, appending the ranges to out.
func (l rangeLists) appendList5(out [][2]uint64, off uint64) ([][2]uint64, error) {
	r := rangeReader{b: l.rnglists, pos: off, asize: l.asize}
	base := l.base
	for {
		kind := r.byte()
		var lo, hi uint64
		switch kind {
		case rleEndOfList:
			return out, r.err
		case rleBaseAddressx:
			base = l.address(r.uleb(), &r)
			continue
		case rleBaseAddress:
			base = r.addr()
			continue
		case rleStartxEndx:
			lo, hi = l.address(r.uleb(), &r), l.address(r.uleb(), &r)
		case rleStartxLength:
			lo = l.address(r.uleb(), &r)
			hi = lo + r.uleb()
		case rleOffsetPair:
			lo, hi = base+r.uleb(), base+r.uleb()
		case rleStartEnd:
			lo, hi = r.addr(), r.addr()
		case rleStartLength:
			lo = r.addr()
			hi = lo + r.uleb()
		default:
			r.fail(fmt.Errorf("unknown range list entry kind %d", kind))
		}
		if r.err != nil {
			return nil, r.err
		}
		out = append(out, [2]uint64{lo, hi})
	}
}

// address is entry idx of the unit's addresses.
func (l rangeLists) address(idx uint64, r *rangeReader) uint64 {
	a := rangeReader{b: l.addr, pos: idx * uint64(l.asize), asize: l.asize}
	v := a.addr()
	if a.err != nil {
		r.fail(fmt.Errorf(".debug_addr index %d: %w", idx, a.err))
	}
	return v
}

// rangeReader reads range list entries with a sticky error.
type rangeReader struct {
	b     []byte
	pos   uint64
	asize int
	err   error
}

var errRangeEOF = errors.New("range list runs past the end of its section")

func (r *rangeReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *rangeReader) byte() byte {
	if r.err != nil || r.pos >= uint64(len(r.b)) {
		r.fail(errRangeEOF)
		return 0
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

func (r *rangeReader) uleb() uint64 {
	if r.err != nil || r.pos > uint64(len(r.b)) {
		r.fail(errRangeEOF)
		return 0
	}
	v, n := leb128.Uint(r.b[r.pos:])
	if n == 0 {
		r.fail(errRangeEOF)
		r.pos = uint64(len(r.b))
	}
	r.pos += uint64(n)
	return v
}

func (r *rangeReader) addr() uint64 {
	n := uint64(r.asize)
	if r.err != nil || n > 8 || n == 0 || r.pos+n > uint64(len(r.b)) || r.pos+n < r.pos {
		r.fail(errRangeEOF)
		return 0
	}
	var v uint64
	for i := n; i > 0; i-- {
		v = v<<8 | uint64(r.b[r.pos+i-1])
	}
	r.pos += n
	return v
}
