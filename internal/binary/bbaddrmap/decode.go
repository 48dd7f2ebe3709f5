package bbaddrmap

import (
	"math"

	"github.com/profgen/profgen/internal/binary/sectionreader"
)

// Section is the name of the map's section.
const Section = ".llvm_bb_addr_map"

// Versions read: clang 19 writes 2, clang 22 writes 5.
const (
	MinVersion = 2
	MaxVersion = 5
)

// Options says how to read addresses.
type Options struct {
	// Name names the section in errors (default Section).
	Name string
	// AddrSize is the size of an address: 8 (default) or 4.
	AddrSize int
	// Reloc gives the address at a section offset of a relocatable
	// object (the addend of the relocation there); nil reads addresses
	// from the section's bytes.
	Reloc func(off int) (uint64, bool)
}

type decoder struct {
	r    *sectionreader.Reader
	opts Options
	// prevEnd is the offset of the previous block's end in its range.
	prevEnd uint32
}

// Decode decodes the bytes of one map section.
func Decode(data []byte, opts Options) ([]Func, error) {
	if opts.Name == "" {
		opts.Name = Section
	}
	d := &decoder{r: sectionreader.New(opts.Name, data), opts: opts}
	var funcs []Func
	for !d.r.Done() {
		if f := d.function(); d.r.Err() == nil {
			funcs = append(funcs, f)
		}
	}
	if err := d.r.Err(); err != nil {
		return nil, err
	}
	return funcs, nil
}

func (d *decoder) function() Func {
	f := Func{Version: d.version()}
	f.Features = d.features(f.Version)
	f.Ranges = d.ranges(f.Features)
	if f.Features.hasPGO() {
		f.PGO = d.pgo(f.Features, f.NumBlocks())
	}
	return f
}

func (d *decoder) version() uint8 {
	at := d.r.Offset()
	v := d.r.U8("version")
	if d.r.Err() == nil && (v < MinVersion || v > MaxVersion) {
		d.r.Fail(at, "unsupported version %d: profgen reads versions %d to %d, which clang 19 to 22 write with -fbasic-block-address-map", v, MinVersion, MaxVersion)
	}
	return v
}

// features reads the feature field and checks that its bits are known
// and that the version has them.
func (d *decoder) features(version uint8) Features {
	at := d.r.Offset()
	var f Features
	if version < 5 {
		f = Features(d.r.U8("features"))
	} else {
		f = Features(d.r.U16("features"))
	}
	switch {
	case f&^featureBits != 0:
		d.r.Fail(at, "unknown feature bits %#x", uint16(f))
	case f.Has(CallSites) && version < 3:
		d.r.Fail(at, "call-site offsets need version 3, not %d", version)
	case f.Has(BlockHash) && version < 4:
		d.r.Fail(at, "block hashes need version 4, not %d", version)
	case f.Has(PostLinkCFG) && version < 5:
		d.r.Fail(at, "post-link counts need version 5, not %d", version)
	}
	return f
}

func (d *decoder) ranges(f Features) []Range {
	n := uint64(1)
	if f.Has(MultiRange) {
		at := d.r.Offset()
		if n = d.r.Uint("range count", math.MaxUint32); n == 0 && d.r.Err() == nil {
			d.r.Fail(at, "no ranges")
		}
	}
	var ranges []Range
	for i := uint64(0); i < n && d.r.Err() == nil; i++ {
		base := d.address()
		count := d.r.Uint("block count", math.MaxUint32)
		ranges = append(ranges, Range{Base: base, Blocks: d.blocks(count, f)})
	}
	return ranges
}

// address reads a range's base address.
func (d *decoder) address() uint64 {
	at := d.r.Offset()
	var a uint64
	if d.opts.AddrSize == 4 {
		a = uint64(d.r.U32("address"))
	} else {
		a = d.r.U64("address")
	}
	if d.opts.Reloc != nil && d.r.Err() == nil {
		r, ok := d.opts.Reloc(at)
		if !ok {
			d.r.Fail(at, "no relocation for the address")
		}
		a = r
	}
	return a
}

func (d *decoder) blocks(count uint64, f Features) []Block {
	if f.Has(OmitBlocks) {
		return nil
	}
	var blocks []Block
	d.prevEnd = 0
	for i := uint64(0); i < count && d.r.Err() == nil; i++ {
		b := d.block(f)
		if d.r.Err() == nil {
			blocks = append(blocks, b)
		}
	}
	return blocks
}

// block reads one block. Offsets and sizes add up in 32 bits, wrapping
// as LLVM's do.
func (d *decoder) block(f Features) Block {
	b := Block{ID: d.u32("block ID")}
	offset := d.u32("block offset")
	var lastCall uint32
	if f.Has(CallSites) {
		n := d.r.Uint("call-site count", math.MaxUint32)
		for i := uint64(0); i < n && d.r.Err() == nil; i++ {
			lastCall += d.u32("call-site end offset")
			b.CallSiteEnds = append(b.CallSiteEnds, lastCall)
		}
	}
	b.Size = d.u32("block size") + lastCall
	b.Meta = d.metadata()
	if f.Has(BlockHash) {
		b.Hash = d.r.U64("block hash")
	}
	b.Offset = d.prevEnd + offset
	d.prevEnd = b.Offset + b.Size
	return b
}

func (d *decoder) metadata() Metadata {
	at := d.r.Offset()
	m := d.r.Uint("block metadata", math.MaxUint32)
	if m&^metadataBits != 0 {
		d.r.Fail(at, "unknown block metadata bits %#x", m)
	}
	return Metadata(m)
}

func (d *decoder) u32(what string) uint32 { return uint32(d.r.Uint(what, math.MaxUint32)) }

// pgo reads the PGO analysis data of a function of nblocks blocks.
func (d *decoder) pgo(f Features, nblocks int) *PGO {
	p := &PGO{}
	if f.Has(FuncEntryCount) {
		p.EntryCount = d.r.Uint("function entry count", math.MaxUint64)
	}
	for i := 0; i < nblocks && f.hasPGOBlocks() && d.r.Err() == nil; i++ {
		p.Blocks = append(p.Blocks, d.pgoBlock(f))
	}
	return p
}

func (d *decoder) pgoBlock(f Features) PGOBlock {
	var b PGOBlock
	if f.Has(BlockFreq) {
		b.Freq = d.r.Uint("block frequency", math.MaxUint64)
	}
	if f.Has(PostLinkCFG) {
		b.PostLinkFreq = d.u32("post-link block count")
	}
	if !f.Has(BranchProb) {
		return b
	}
	n := d.r.Uint("successor count", math.MaxUint64)
	for i := uint64(0); i < n && d.r.Err() == nil; i++ {
		s := Succ{ID: d.u32("successor ID"), Prob: d.u32("branch probability")}
		if f.Has(PostLinkCFG) {
			s.PostLinkFreq = d.u32("post-link edge count")
		}
		b.Succs = append(b.Succs, s)
	}
	return b
}
