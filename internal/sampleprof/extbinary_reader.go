package sampleprof

import (
	"fmt"

	"github.com/profgen/profgen/internal/inflate"
)

// secHeader is one entry of the extbinary section header table.
type secHeader struct {
	typ, flags, offset, size uint64
}

// readExtBinary reads the section header table, then each non-empty
// section in table order, as LLVM's SampleProfileReaderExtBinary does.
func readExtBinary(d *decoder) (*Profile, error) {
	headers := readSecHeaders(d)
	pd := &profileDecoder{decoder: d, p: NewProfile()}
	for _, h := range headers {
		if h.typ == secFuncMetadata {
			// Its flags hold even when no function has metadata.
			pd.p.ProbeBased = h.flags&secFlagIsProbeBased != 0
		}
		if d.err != nil || h.size == 0 {
			continue
		}
		sd, err := sectionDecoder(d.data, h)
		if err != nil {
			return nil, err
		}
		pd.decoder = sd
		pd.section(h)
		if sd.err == nil && sd.pos != len(sd.data) {
			sd.failf("section type %d has %d bytes left over", h.typ, len(sd.data)-sd.pos)
		}
		d.err = sd.err
	}
	if d.err != nil {
		return nil, d.err
	}
	return pd.p, nil
}

func readSecHeaders(d *decoder) []secHeader {
	start := d.pos
	n := d.u64()
	if n > uint64(len(d.data)-d.pos)/32 {
		d.pos = start
		d.failf("section header table of %d entries exceeds the file", n)
		return nil
	}
	hs := make([]secHeader, n)
	for i := range hs {
		hs[i] = secHeader{d.u64(), d.u64(), d.u64(), d.u64()}
	}
	for _, h := range hs {
		if h.offset > uint64(len(d.data)) || h.size > uint64(len(d.data))-h.offset {
			d.failf("section type %d at offset %d size %d exceeds the file of %d bytes", h.typ, h.offset, h.size, len(d.data))
		}
	}
	return hs
}

// sectionDecoder returns a decoder of the section's bytes, decompressed
// when the section is compressed (ULEB128 sizes, then zlib data).
func sectionDecoder(data []byte, h secHeader) (*decoder, error) {
	sd := &decoder{data: data[h.offset : h.offset+h.size], base: int64(h.offset)}
	if h.flags&secFlagCompress == 0 {
		return sd, nil
	}
	size := sd.uleb()
	csize := sd.uleb()
	if sd.err == nil && csize > uint64(len(sd.data)-sd.pos) {
		sd.failf("compressed size %d exceeds the section", csize)
	}
	if sd.err != nil {
		return nil, sd.err
	}
	out, err := inflate.Zlib(sd.data[sd.pos:sd.pos+int(csize)], size)
	if err != nil {
		return nil, &FormatError{Offset: int64(h.offset), Err: fmt.Errorf("compressed section: %w", err)}
	}
	return &decoder{data: out, base: int64(h.offset), note: " (in the decompressed section)"}, nil
}

func (d *profileDecoder) section(h secHeader) {
	switch h.typ {
	case secProfSummary:
		d.p.CS = h.flags&secFlagFullContext != 0
		d.p.FSDiscriminators = h.flags&secFlagFSDiscriminator != 0
		d.p.PreInlined = h.flags&secFlagIsPreInlined != 0
		d.vtables = h.flags&secFlagHasVTableTypeProf != 0
		d.summary()
	case secNameTable:
		if h.flags&secFlagMD5Name != 0 {
			d.md5Names(h.flags&secFlagFixedLengthMD5 != 0)
		} else {
			d.stringNames()
		}
	case secCSNameTable:
		d.csNameTable()
	case secFuncOffsetTable:
		d.funcOffsetTable()
	case secLBRProfile:
		for !d.done() {
			d.function()
		}
	case secProfileSymbolList:
		d.symbolList()
	case secFuncMetadata:
		for !d.done() {
			if d.p.CS {
				d.csMetadata(h.flags)
				continue
			}
			d.metadata(d.p.Functions[d.name()], h.flags, 0)
		}
	default:
		d.pos = len(d.data) // a section this reader does not know
	}
}

// funcOffsetTable checks the table; profiles are read in full anyway.
func (d *profileDecoder) funcOffsetTable() {
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		if d.p.CS {
			d.context()
		} else {
			d.name()
		}
		d.uleb()
	}
}

func (d *profileDecoder) symbolList() {
	for !d.done() {
		d.p.SymbolList = append(d.p.SymbolList, d.cstring())
	}
}

// metadata reads the checksum (probe profiles) and attributes of f and of
// the callees inlined in it. Entries of functions without samples (f nil)
// are read and dropped.
func (d *profileDecoder) metadata(f *FunctionSamples, flags uint64, depth int) {
	if depth > maxInlineDepth {
		d.failf("inlinees nested deeper than %d", maxInlineDepth)
		return
	}
	if flags&secFlagIsProbeBased != 0 {
		sum := d.uleb()
		if f != nil {
			f.Checksum = sum
		}
	}
	if flags&secFlagHasAttribute != 0 {
		a := d.uleb32()
		if f != nil {
			f.Attributes = a
		}
	}
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		loc := d.location()
		name := d.name()
		var callee *FunctionSamples
		if f != nil {
			callee = f.Callsites[loc][name]
		}
		d.metadata(callee, flags, depth+1)
	}
}

// csNameTable reads the contexts of a CS profile: for each, its frames,
// each a name index and a call-site location.
func (d *profileDecoder) csNameTable() {
	n := d.count()
	if n > 0 && !d.p.CS {
		d.failf("%d contexts in a profile not flagged context-sensitive", n)
		return
	}
	d.contexts = make([][]ContextFrame, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		m := d.count()
		ctx := make([]ContextFrame, 0, m)
		for j := 0; j < m && d.err == nil; j++ {
			ctx = append(ctx, ContextFrame{Func: d.name(), Loc: d.location()})
		}
		if m == 0 {
			d.failf("empty context")
		}
		d.contexts = append(d.contexts, ctx)
	}
}

// context reads a CS name table index.
func (d *profileDecoder) context() []ContextFrame {
	start := d.pos
	i := d.uleb()
	if d.err == nil && i >= uint64(len(d.contexts)) {
		d.pos = start
		d.failf("context index %d out of range (CS name table has %d)", i, len(d.contexts))
	}
	if d.err != nil {
		return nil
	}
	return d.contexts[i]
}

// csMetadata reads a CS profile's metadata: context, checksum, attributes.
func (d *profileDecoder) csMetadata(flags uint64) {
	ctx := d.context()
	f := d.p.Functions[ContextString(ctx)]
	if flags&secFlagIsProbeBased != 0 {
		sum := d.uleb()
		if f != nil {
			f.Checksum = sum
		}
	}
	if flags&secFlagHasAttribute != 0 {
		a := d.uleb32()
		if f != nil {
			f.Attributes = a
		}
	}
}
