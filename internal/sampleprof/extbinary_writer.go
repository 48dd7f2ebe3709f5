package sampleprof

import (
	"bytes"
	"compress/zlib"
	"io"
	"slices"
)

// section is one extbinary section: its header table entry and its bytes.
type section struct {
	typ   uint64
	flags uint64
	data  []byte
}

// WriteExtBinary writes p in LLVM's SPF_Ext_Binary format, with the
// sections, section order and flags of llvm-profgen-19 and llvm-profdata-19
// (DefaultLayout): the header table lists summary, name table, CS name
// table, function offset table, profiles, symbol list and function metadata;
// the data follows in that order except that the function offset table,
// which needs the profiles' offsets, comes after the symbol list.
func WriteExtBinary(w io.Writer, p *Profile, opts WriteOptions) error {
	names, err := newNameTable(p, opts.VTables)
	if err != nil {
		return err
	}
	if !opts.UseMD5 {
		if err := names.checkStrings(); err != nil {
			return err
		}
	}
	contexts := newContextTable(p, names)
	summary := summarySection(p)
	if opts.Partial {
		summary.flags |= secFlagPartial
	}
	if opts.VTables {
		summary.flags |= secFlagHasVTableTypeProf
	}
	var layout, onDisk []*section
	if opts.SplitLayout {
		layout, onDisk = splitLayout(p, names, contexts, summary, opts.UseMD5)
	} else {
		layout, onDisk = defaultLayout(p, names, contexts, summary, opts.UseMD5)
	}
	if opts.Compress {
		for _, s := range layout {
			compressSection(s)
		}
	}
	_, err = w.Write(extBinaryFile(layout, onDisk))
	return err
}

// defaultLayout is LLVM's DefaultLayout: the sections in header-table
// order, and in file order (the offset table after the symbol list).
func defaultLayout(p *Profile, names *nameTable, contexts *contextTable, summary *section, md5 bool) (layout, onDisk []*section) {
	profiles, offsets := profileSection(p, names, contexts)
	layout = []*section{
		summary,
		nameTableSection(p, names, md5),
		contexts.section(names),
		offsetTableSection(p, offsets),
		{typ: secLBRProfile, data: profiles},
		{typ: secProfileSymbolList, data: symbolListSection(p.SymbolList)},
		metadataSection(p, names, contexts),
	}
	return layout, []*section{layout[0], layout[1], layout[2], layout[4], layout[5], layout[3], layout[6]}
}

// splitLayout is LLVM's CtxSplitLayout: no CS name table; an offset table
// and a profile section for the functions with inlinees, then a pair
// flagged flat for the others; each pair is written profiles first.
func splitLayout(p *Profile, names *nameTable, contexts *contextTable, summary *section, md5 bool) (layout, onDisk []*section) {
	nested, flat := &Profile{Functions: map[string]*FunctionSamples{}, MD5: p.MD5}, &Profile{Functions: map[string]*FunctionSamples{}, MD5: p.MD5}
	for name, f := range p.Functions {
		if len(f.Callsites) > 0 {
			nested.Functions[name] = f
		} else {
			flat.Functions[name] = f
		}
	}
	nestedProfiles, nestedOffsets := profileSection(nested, names, contexts)
	flatProfiles, flatOffsets := profileSection(flat, names, contexts)
	layout = []*section{
		summary,
		nameTableSection(p, names, md5),
		{typ: secFuncOffsetTable, data: nestedOffsets},
		{typ: secLBRProfile, data: nestedProfiles},
		{typ: secFuncOffsetTable, flags: secFlagFlat, data: flatOffsets},
		{typ: secLBRProfile, flags: secFlagFlat, data: flatProfiles},
		{typ: secProfileSymbolList, data: symbolListSection(p.SymbolList)},
		metadataSection(p, names, contexts),
	}
	return layout, []*section{layout[0], layout[1], layout[3], layout[2], layout[5], layout[4], layout[6], layout[7]}
}

// compressSection flags s compressed and, unless it is empty, replaces its
// bytes by their size, the compressed size and the zlib stream (best
// compression, as LLVM's writer).
func compressSection(s *section) {
	s.flags |= secFlagCompress
	if len(s.data) == 0 {
		return
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write(s.data)
	zw.Close()
	var e encoder
	e.uleb(uint64(len(s.data)))
	e.uleb(uint64(z.Len()))
	s.data = append(e.buf, z.Bytes()...)
}

// extBinaryFile lays out magic, version, the header table (entry count and
// entries as little-endian uint64s: type, flags, offset, size) and the data.
func extBinaryFile(layout, onDisk []*section) []byte {
	var e encoder
	e.uleb(magicExtBinary)
	e.uleb(formatVersion)
	e.u64(uint64(len(layout)))
	offsets := map[*section]uint64{}
	off := uint64(len(e.buf) + 32*len(layout))
	for _, s := range onDisk {
		offsets[s] = off
		off += uint64(len(s.data))
	}
	for _, s := range layout {
		e.u64(s.typ)
		e.u64(s.flags)
		e.u64(offsets[s])
		e.u64(uint64(len(s.data)))
	}
	for _, s := range onDisk {
		e.buf = append(e.buf, s.data...)
	}
	return e.buf
}

func summarySection(p *Profile) *section {
	s := &section{typ: secProfSummary}
	if p.FSDiscriminators {
		s.flags |= secFlagFSDiscriminator
	}
	if p.PreInlined {
		s.flags |= secFlagIsPreInlined
	}
	if p.CS {
		s.flags |= secFlagFullContext
	}
	var e encoder
	e.summary(ComputeSummary(p))
	s.data = e.buf
	return s
}

// nameTableSection writes the names, or their MD5s as fixed 8-byte values.
// The uniq flag tells the compiler to keep ".__uniq." suffixes when matching;
// LLVM sets it only on string name tables.
func nameTableSection(p *Profile, t *nameTable, md5 bool) *section {
	s := &section{typ: secNameTable}
	if md5 {
		s.flags |= secFlagMD5Name | secFlagFixedLengthMD5
	}
	if !md5 && !p.MD5 && slices.ContainsFunc(t.names, hasUniqSuffix) {
		s.flags |= secFlagUniqSuffix
	}
	var e encoder
	e.names(t, md5)
	s.data = e.buf
	return s
}

// profileSection writes the function profiles, hottest first, and the
// function offset table: each function's name index (context index in a
// CS profile, in context order) and the offset of its profile from the
// start of the profile section.
func profileSection(p *Profile, t *nameTable, c *contextTable) (profiles, offsets []byte) {
	var prof, table encoder
	fs := p.SortedFunctions()
	at := make(map[*FunctionSamples]uint64, len(fs))
	for _, f := range fs {
		at[f] = uint64(len(prof.buf))
		prof.uleb(f.HeadSamples)
		prof.bodyIn(f, t, c)
	}
	if c.cs {
		fs = c.profiles
	}
	table.uleb(uint64(len(fs)))
	for _, f := range fs {
		table.uleb(c.idx(f, t))
		table.uleb(at[f])
	}
	return prof.buf, table.buf
}

func offsetTableSection(p *Profile, offsets []byte) *section {
	s := &section{typ: secFuncOffsetTable, data: offsets}
	if p.CS {
		s.flags |= secFlagOrdered
	}
	return s
}

// metadataSection writes the CFG checksums of a pseudo-probe profile and
// the context attributes of a pre-inlined one: for each function its name
// index, checksum, attributes, and the same for the callees inlined at each
// call site. Other profiles leave the section empty. Top-level functions
// come in LLVM's hash map order when the profile's insertion order is
// known (read or merged profiles), else in profile order.
func metadataSection(p *Profile, t *nameTable, c *contextTable) *section {
	s := &section{typ: secFuncMetadata}
	if p.ProbeBased {
		s.flags |= secFlagIsProbeBased
	}
	if p.PreInlined || p.CS {
		s.flags |= secFlagHasAttribute
	}
	if s.flags == 0 {
		return s
	}
	var e encoder
	for _, f := range p.mapOrder() {
		if c.cs {
			e.csMetadata(f, t, c, s.flags)
			continue
		}
		e.metadata(f, t, s.flags)
	}
	s.data = e.buf
	return s
}

func (e *encoder) metadata(f *FunctionSamples, t *nameTable, flags uint64) {
	e.uleb(t.index[f.Name])
	if flags&secFlagIsProbeBased != 0 {
		e.uleb(f.Checksum)
	}
	if flags&secFlagHasAttribute != 0 {
		e.uleb(uint64(f.Attributes))
	}
	n := 0
	for _, callees := range f.Callsites {
		n += len(callees)
	}
	e.uleb(uint64(n))
	for _, loc := range SortedLocations(f.Callsites) {
		for _, c := range sortedInlinees(f.Callsites[loc], t.less) {
			e.location(loc)
			e.metadata(c, t, flags)
		}
	}
}

// symbolListSection writes the sorted symbol names, each NUL-terminated.
func symbolListSection(syms []string) []byte {
	sorted := slices.Clone(syms)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	var e encoder
	for _, s := range sorted {
		e.cstring(s)
	}
	return e.buf
}
