package sampleprof

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/profgen/profgen/internal/leb128"
)

// maxInlineDepth bounds the nesting of inlinees a reader follows, so a
// corrupt profile cannot exhaust the stack.
const maxInlineDepth = 10000

// decoder reads LLVM's binary encodings from one buffer. It keeps the
// first error and then returns zeros, so callers check once at the end.
type decoder struct {
	data []byte
	pos  int
	base int64 // file offset of data[0]
	note string
	err  error
}

func (d *decoder) failf(format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{Offset: d.base + int64(d.pos), Err: fmt.Errorf(format+d.note, args...)}
	}
}

func (d *decoder) done() bool { return d.err != nil || d.pos >= len(d.data) }

// uleb reads a ULEB128 as LLVM's decodeULEB128: zero bits past the
// 64th are padding.
func (d *decoder) uleb() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := leb128.Uint(d.data[d.pos:])
	switch {
	case leb128.UintOverflows(d.data[d.pos:]):
		d.failf("number overflows 64 bits")
	case n == 0:
		d.failf("truncated number")
	default:
		d.pos += n
		return v
	}
	return 0
}

// uleb32 reads a ULEB128 that LLVM reads into a 32-bit field.
func (d *decoder) uleb32() uint32 {
	start := d.pos
	v := d.uleb()
	if v > math.MaxUint32 {
		d.pos = start
		d.failf("number %d exceeds 32 bits", v)
		return 0
	}
	return uint32(v)
}

func (d *decoder) u64() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.data)-d.pos < 8 {
		d.failf("truncated 8-byte number")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.data[d.pos:])
	d.pos += 8
	return v
}

func (d *decoder) cstring() string {
	if d.err != nil {
		return ""
	}
	for i := d.pos; i < len(d.data); i++ {
		if d.data[i] == 0 {
			s := string(d.data[d.pos:i])
			d.pos = i + 1
			return s
		}
	}
	d.failf("unterminated string")
	return ""
}

// count reads a number of items each taking at least one byte; a count
// larger than the bytes left is corrupt.
func (d *decoder) count() int {
	start := d.pos
	n := d.uleb()
	if n > uint64(len(d.data)-d.pos) {
		d.pos = start
		d.failf("count %d exceeds the %d bytes left", n, len(d.data)-d.pos)
		return 0
	}
	return int(n)
}

func (d *decoder) summary() {
	for range 5 { // total, max count, max function count, counts, functions
		d.uleb()
	}
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		d.uleb()
		d.uleb()
		d.uleb()
	}
}

// profileDecoder reads function profiles, resolving names by index.
type profileDecoder struct {
	*decoder
	p        *Profile
	names    []string
	contexts [][]ContextFrame // the CS name table of a context-sensitive extbinary profile
	vtables  bool             // each body ends with its vtable type counts
}

func (d *profileDecoder) name() string {
	start := d.pos
	i := d.uleb()
	if d.err == nil && i >= uint64(len(d.names)) {
		d.pos = start
		d.failf("name index %d out of range (name table has %d)", i, len(d.names))
		return ""
	}
	if d.err != nil {
		return ""
	}
	return d.names[i]
}

// stringNames reads a name table of NUL-terminated strings.
func (d *profileDecoder) stringNames() {
	n := d.count() // at most the bytes left: each name takes at least its NUL
	d.names = make([]string, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		d.names = append(d.names, d.cstring())
	}
}

// function reads a top-level profile: head samples, name, then the body.
// A function seen before is added to.
func (d *profileDecoder) function() {
	head := d.uleb()
	f := d.topLevel()
	if d.err != nil {
		return
	}
	f.HeadSamples = addSat(f.HeadSamples, head)
	d.body(f, 0)
}

// topLevel reads what names a top-level profile, its name, or in a CS
// profile its context, and returns the profile.
func (d *profileDecoder) topLevel() *FunctionSamples {
	if !d.p.CS {
		name := d.name()
		if d.err != nil {
			return nil
		}
		return d.p.insertFunction(name)
	}
	ctx := d.context()
	if d.err != nil {
		return nil
	}
	return d.p.ContextProfile(ctx)
}

func (d *profileDecoder) body(f *FunctionSamples, depth int) {
	if depth > maxInlineDepth {
		d.failf("inlinees nested deeper than %d", maxInlineDepth)
		return
	}
	f.TotalSamples = addSat(f.TotalSamples, d.uleb())
	n := d.count()
	if len(f.Body) == 0 {
		f.Body = make(map[LineLocation]*SampleRecord, min(n, 1024))
	}
	for i := 0; i < n && d.err == nil; i++ {
		d.record(f)
	}
	n = d.count()
	for i := 0; i < n && d.err == nil; i++ {
		loc := d.location()
		name := d.name()
		if d.err != nil {
			return
		}
		d.body(f.Inlinee(loc, name), depth+1)
	}
	if d.vtables {
		d.readVTables(f)
	}
}

func (d *profileDecoder) record(f *FunctionSamples) {
	loc := d.location()
	samples := d.uleb()
	n := d.count()
	r := f.Record(loc)
	if n > 0 && r.CallTargets == nil {
		r.CallTargets = make(map[string]uint64, min(n, 64))
	}
	for i := 0; i < n && d.err == nil; i++ {
		callee := d.name()
		calls := d.uleb()
		if d.err == nil {
			f.addCallTargetSat(loc, callee, calls)
		}
	}
	r.Samples = addSat(r.Samples, samples)
}

func (d *profileDecoder) location() LineLocation {
	return LineLocation{LineOffset: d.uleb32(), Discriminator: d.uleb32()}
}

// readHeader checks magic and version and returns the format.
func readHeader(d *decoder) Format {
	magic := d.uleb()
	if d.err != nil {
		return FormatUnknown
	}
	var f Format
	switch magic {
	case magicBinary:
		f = FormatBinary
	case magicExtBinary:
		f = FormatExtBinary
	default:
		d.pos = 0
		d.failf("not a binary sample profile (magic %#x)", magic)
		return FormatUnknown
	}
	start := d.pos
	if v := d.uleb(); d.err == nil && v != formatVersion {
		d.pos = start
		d.failf("unsupported version %d (want %d)", v, formatVersion)
	}
	return f
}

// ReadBinary reads a profile in the binary or extbinary format.
func ReadBinary(data []byte) (*Profile, error) {
	d := &decoder{data: data}
	var p *Profile
	var err error
	switch readHeader(d) {
	case FormatBinary:
		p, err = readSPFBinary(d)
	case FormatExtBinary:
		p, err = readExtBinary(d)
	default:
		return nil, d.err
	}
	if err != nil {
		return nil, err
	}
	p.readerMapOrder()
	return p, nil
}

// readSPFBinary reads summary, name table and the profiles up to the end.
func readSPFBinary(d *decoder) (*Profile, error) {
	pd := &profileDecoder{decoder: d, p: NewProfile()}
	d.summary()
	pd.stringNames()
	for !d.done() {
		pd.function()
	}
	if d.err != nil {
		return nil, d.err
	}
	return pd.p, nil
}

// md5Names reads an MD5 name table, fixed-length or ULEB128; the names
// become the hashes in decimal, as LLVM prints them.
func (d *profileDecoder) md5Names(fixed bool) {
	n := d.count()
	if fixed && n > (len(d.data)-d.pos)/8 {
		d.failf("%d MD5 names exceed the %d bytes left", n, len(d.data)-d.pos)
		return
	}
	d.names = make([]string, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		var h uint64
		if fixed {
			h = d.u64()
		} else {
			h = d.uleb()
		}
		d.names = append(d.names, strconv.FormatUint(h, 10))
	}
	d.p.MD5 = true
}
