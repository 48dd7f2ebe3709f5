package memprof

// A memory info block (MIB) holds the statistics of one allocation
// context. Its fields are LLVM's MIBEntryDef list, in order; an indexed
// profile names fields by their tag (position + 1) in a schema.

// NumFields is the number of MIB fields.
const NumFields = 27

// Tags of the MIB fields that code refers to by name.
const (
	TagAllocCount                 = 1
	TagTotalAccessCount           = 2
	TagMinAccessCount             = 3
	TagMaxAccessCount             = 4
	TagTotalSize                  = 5
	TagMinSize                    = 6
	TagMaxSize                    = 7
	TagAllocTimestamp             = 8
	TagDeallocTimestamp           = 9
	TagTotalLifetime              = 10
	TagMinLifetime                = 11
	TagMaxLifetime                = 12
	TagAllocCpuID                 = 13
	TagDeallocCpuID               = 14
	TagNumMigratedCpu             = 15
	TagNumLifetimeOverlaps        = 16
	TagNumSameAllocCpu            = 17
	TagNumSameDeallocCpu          = 18
	TagTotalAccessDensity         = 20
	TagMinAccessDensity           = 21
	TagMaxAccessDensity           = 22
	TagTotalLifetimeAccessDensity = 23
	TagMinLifetimeAccessDensity   = 24
	TagMaxLifetimeAccessDensity   = 25
	TagAccessHistogramSize        = 26
	TagAccessHistogram            = 27
)

// Field describes one MIB field: its name and its size in bytes on disk.
type Field struct {
	Name string
	Size int
}

// Fields lists the MIB fields by tag - 1.
var Fields = [NumFields]Field{
	{"AllocCount", 4}, {"TotalAccessCount", 8}, {"MinAccessCount", 8}, {"MaxAccessCount", 8},
	{"TotalSize", 8}, {"MinSize", 4}, {"MaxSize", 4}, {"AllocTimestamp", 4}, {"DeallocTimestamp", 4},
	{"TotalLifetime", 8}, {"MinLifetime", 4}, {"MaxLifetime", 4}, {"AllocCpuId", 4}, {"DeallocCpuId", 4},
	{"NumMigratedCpu", 4}, {"NumLifetimeOverlaps", 4}, {"NumSameAllocCpu", 4}, {"NumSameDeallocCpu", 4},
	{"DataTypeId", 8}, {"TotalAccessDensity", 8}, {"MinAccessDensity", 4}, {"MaxAccessDensity", 4},
	{"TotalLifetimeAccessDensity", 8}, {"MinLifetimeAccessDensity", 4}, {"MaxLifetimeAccessDensity", 4},
	{"AccessHistogramSize", 4}, {"AccessHistogram", 8},
}

// Schema is a list of field tags: the fields an indexed profile stores.
type Schema []int

// FullSchema stores every field (--memprof-full-schema).
func FullSchema() Schema {
	s := make(Schema, NumFields)
	for i := range s {
		s[i] = i + 1
	}
	return s
}

// HotColdSchema stores what hot/cold hinting uses, llvm-profdata's default.
func HotColdSchema() Schema {
	return Schema{TagAllocCount, TagTotalSize, TagTotalLifetime, TagTotalLifetimeAccessDensity}
}

// Size is the bytes one MIB takes under the schema.
func (s Schema) Size() int {
	n := 0
	for _, tag := range s {
		n += Fields[tag-1].Size
	}
	return n
}

// MIB is one memory info block.
type MIB struct {
	// Values holds the fields by tag - 1, each widened to 64 bits. A raw
	// profile's AccessHistogram is the runtime's pointer to the histogram.
	Values [NumFields]uint64
	// Histogram is the access count histogram (AccessHistogramSize
	// entries), decoded.
	Histogram []uint64
	// Present marks the fields read (bit tag); a raw profile's MIBs have
	// all.
	Present uint32
}

// AllPresent marks every field present.
const AllPresent = uint32(1<<(NumFields+1)) - 2

// Get returns the field of the tag.
func (m *MIB) Get(tag int) uint64 { return m.Values[tag-1] }

// Has tells whether the field of the tag was read.
func (m *MIB) Has(tag int) bool { return m.Present&(1<<tag) != 0 }

// fieldMask truncates v to the width of field tag, as the C++ struct's
// fields wrap.
func fieldMask(tag int, v uint64) uint64 {
	if Fields[tag-1].Size == 4 {
		return uint64(uint32(v))
	}
	return v
}

// Merge folds b, a later block of the same context, into m as the
// runtime's MemInfoBlock::Merge does: sums, minimums and maximums, the
// later block's timestamps and CPUs, and the longer histogram with the
// shorter added in.
func (m *MIB) Merge(b *MIB) {
	sum := func(tag int) { m.Values[tag-1] = fieldMask(tag, m.Get(tag)+b.Get(tag)) }
	minOf := func(tag int) { m.Values[tag-1] = min(m.Get(tag), b.Get(tag)) }
	maxOf := func(tag int) { m.Values[tag-1] = max(m.Get(tag), b.Get(tag)) }
	for _, t := range [...]int{TagAllocCount, TagTotalAccessCount, TagTotalSize, TagTotalLifetime, TagTotalAccessDensity, TagTotalLifetimeAccessDensity} {
		sum(t)
	}
	for _, t := range [...]int{TagMinAccessCount, TagMinSize, TagMinLifetime, TagMinAccessDensity, TagMinLifetimeAccessDensity} {
		minOf(t)
	}
	for _, t := range [...]int{TagMaxAccessCount, TagMaxSize, TagMaxLifetime, TagMaxAccessDensity, TagMaxLifetimeAccessDensity} {
		maxOf(t)
	}
	m.mergeTimesAndCPUs(b)
	m.mergeHistogram(b)
}

func (m *MIB) mergeTimesAndCPUs(b *MIB) {
	v := &m.Values
	if b.Get(TagAllocTimestamp) < m.Get(TagDeallocTimestamp) {
		v[TagNumLifetimeOverlaps-1] = fieldMask(TagNumLifetimeOverlaps, v[TagNumLifetimeOverlaps-1]+1)
	}
	v[TagAllocTimestamp-1], v[TagDeallocTimestamp-1] = b.Get(TagAllocTimestamp), b.Get(TagDeallocTimestamp)
	if m.Get(TagAllocCpuID) == b.Get(TagAllocCpuID) {
		v[TagNumSameAllocCpu-1] = fieldMask(TagNumSameAllocCpu, v[TagNumSameAllocCpu-1]+1)
	}
	if m.Get(TagDeallocCpuID) == b.Get(TagDeallocCpuID) {
		v[TagNumSameDeallocCpu-1] = fieldMask(TagNumSameDeallocCpu, v[TagNumSameDeallocCpu-1]+1)
	}
	v[TagAllocCpuID-1], v[TagDeallocCpuID-1] = b.Get(TagAllocCpuID), b.Get(TagDeallocCpuID)
}

func (m *MIB) mergeHistogram(b *MIB) {
	long, short := m.Histogram, b.Histogram
	if len(b.Histogram) > len(m.Histogram) {
		long, short = b.Histogram, m.Histogram
		m.Values[TagAccessHistogramSize-1] = b.Get(TagAccessHistogramSize)
		m.Values[TagAccessHistogram-1] = b.Get(TagAccessHistogram)
	}
	long = append([]uint64(nil), long...)
	for i, x := range short {
		long[i] += x
	}
	m.Histogram = long
	if len(long) == 0 {
		m.Histogram = nil
	}
}

// decodeHistogramCount decodes a version 5 histogram entry: a 12-bit
// mantissa shifted left by a 4-bit exponent.
func decodeHistogramCount(v uint16) uint64 {
	return uint64(v&0xfff) << (v >> 12)
}
