package symbolize

import (
	"bytes"
	"debug/dwarf"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	elfbin "github.com/profgen/profgen/internal/binary"
)

// Split DWARF (clang and gcc -gsplit-dwarf): the binary holds a skeleton
// unit per compilation unit (its address ranges, line table and where the
// rest is); the functions and inlined subroutines are in a split unit, in
// a .dwo file named by the skeleton (DW_AT_dwo_name, or DW_AT_GNU_dwo_name
// in DWARF 4, relative to DW_AT_comp_dir and then to the working
// directory), or in a DWARF package (.dwp) that llvm-dwp or dwp made of
// them all, found by the unit's DWO id in its index. As in LLVM: when the
// package can be opened it is the only place looked in, else the .dwo
// files are; a split unit not found (or whose DWO id differs) leaves its
// code without functions, and is reported (SplitReport).
//
// A split unit's addresses are indexes into the binary's .debug_addr from
// the skeleton's address base, its strings indexes into its own string
// offsets table, its range lists relative to the skeleton's base address;
// in DWARF 4 (GNU) the forms are DW_FORM_GNU_addr_index and
// DW_FORM_GNU_str_index and range lists are in the binary's .debug_ranges
// from the skeleton's DW_AT_GNU_ranges_base. debug/dwarf reads a split unit
// over the slices of those sections that make its bases zero (splitunit.go).

// Split tells New where the split units of a -gsplit-dwarf binary are.
type Split struct {
	// Section returns a section of the file holding the skeleton units
	// (".debug_info", ".debug_addr", ".debug_ranges"), uncompressed, or
	// nil when it has none.
	Section func(name string) ([]byte, error)
	// DWP is the DWARF package (llvm-profgen's --dwp; its default is the
	// path of the file holding the DWARF with ".dwp" appended). When it
	// cannot be opened, each unit's .dwo file is read instead.
	DWP string
}

// SplitReport says how the split units were found.
type SplitReport struct {
	Units   int      // skeleton units in the binary
	DWP     string   // the package read; "" when .dwo files were
	DWPErr  error    // why Split.DWP could not be opened
	Missing []string // DW_AT_dwo_name of each unit whose split unit was not found
}

// DWARF attributes of split DWARF that debug/dwarf does not name.
const (
	attrGNUDwoName    dwarf.Attr = 0x2130
	attrGNUDwoID      dwarf.Attr = 0x2131
	attrGNURangesBase dwarf.Attr = 0x2132
	attrGNUAddrBase   dwarf.Attr = 0x2133
)

// skeleton is what a skeleton unit says of its split unit.
type skeleton struct {
	name       string // DW_AT_dwo_name or DW_AT_GNU_dwo_name
	path       string // where its .dwo file is
	id         uint64
	addrBase   uint64 // of the binary's .debug_addr
	rangesBase uint64 // DWARF 4: of the binary's .debug_ranges
	base       uint64 // DW_AT_low_pc: the base address of range lists
}

// isSkeleton tells a skeleton unit: DW_TAG_skeleton_unit (DWARF 5), or a
// compile unit with a DW_AT_GNU_dwo_id (DWARF 4), which LLVM takes for one.
func isSkeleton(cu *dwarf.Entry) bool {
	if cu.Tag == dwarf.TagSkeletonUnit {
		return true
	}
	_, ok := cu.Val(attrGNUDwoID).(int64)
	return cu.Tag == dwarf.TagCompileUnit && ok
}

// splitRef is where a skeleton's split unit is: a row of the package's
// index, or a unit of a .dwo file.
type splitRef struct {
	skel     skeleton
	contribs map[uint32]contribution // in the package; nil: in the .dwo file
	entry    dwarf.Offset            // .dwo file: the split unit's DIE in its .debug_info.dwo
}

// splitSource finds and reads the split units of one binary.
type splitSource struct {
	opts   Split
	dwp    *dwoFile // nil when the package could not be opened
	report SplitReport
	// sections of the binary, read on first use
	info, addr, ranges []byte
	sectionsRead       bool
	sectionsErr        error
}

func newSplitSource(opts *Split) *splitSource {
	if opts == nil {
		return nil
	}
	return &splitSource{opts: *opts}
}

// restart forgets the units located so far, to locate them again.
func (s *splitSource) restart() {
	if s != nil {
		s.report.Units, s.report.Missing = 0, nil
	}
}

// readSections reads the binary's sections and opens the package, the
// first time a skeleton is met.
func (s *splitSource) readSections() error {
	if s.sectionsRead {
		return s.sectionsErr
	}
	s.sectionsRead = true
	for _, sec := range []struct {
		name string
		dst  *[]byte
	}{{".debug_info", &s.info}, {".debug_addr", &s.addr}, {".debug_ranges", &s.ranges}} {
		if *sec.dst, s.sectionsErr = s.opts.Section(sec.name); s.sectionsErr != nil {
			return s.sectionsErr
		}
	}
	if s.opts.DWP != "" {
		s.dwp, s.report.DWPErr = openDWO(s.opts.DWP, true)
		if s.dwp != nil {
			s.report.DWP = s.opts.DWP
		}
	}
	return nil
}

// locate finds the split unit of skeleton cu; nil when it is not found
// (reported as missing).
func (s *splitSource) locate(cu *dwarf.Entry) (*splitRef, error) {
	if err := s.readSections(); err != nil {
		return nil, fmt.Errorf("split DWARF: reading the binary's sections: %w", err)
	}
	s.report.Units++
	skel, ok := s.readSkeleton(cu)
	if !ok {
		s.report.Missing = append(s.report.Missing, skel.name)
		return nil, nil
	}
	ref := s.find(skel)
	if ref == nil {
		s.report.Missing = append(s.report.Missing, skel.name)
	}
	return ref, nil
}

// readSkeleton reads the attributes of skeleton cu; false when it names no
// split unit.
func (s *splitSource) readSkeleton(cu *dwarf.Entry) (skeleton, bool) {
	var k skeleton
	attrName, attrAddrBase := dwarf.AttrDwoName, dwarf.AttrAddrBase
	if cu.Tag != dwarf.TagSkeletonUnit {
		attrName, attrAddrBase = attrGNUDwoName, attrGNUAddrBase
	}
	k.name, _ = cu.Val(attrName).(string)
	addrBase, _ := cu.Val(attrAddrBase).(int64)
	rangesBase, _ := cu.Val(attrGNURangesBase).(int64)
	k.addrBase, k.rangesBase = uint64(addrBase), uint64(rangesBase)
	k.base, _ = cu.Val(dwarf.AttrLowpc).(uint64)
	if id, ok := cu.Val(attrGNUDwoID).(int64); ok {
		k.id = uint64(id)
	} else if off := int(cu.Offset); off >= 8 && off <= len(s.info) {
		k.id = binary.LittleEndian.Uint64(s.info[off-8:]) // the last field of a DWARF 5 skeleton's header
	}
	k.path = k.name
	if dir, _ := cu.Val(dwarf.AttrCompDir).(string); dir != "" && !strings.HasPrefix(k.name, "/") {
		k.path = strings.TrimSuffix(dir, "/") + "/" + k.name
	}
	return k, k.name != ""
}

// find looks for the split unit of k: in the package when there is one,
// else in its .dwo file.
func (s *splitSource) find(k skeleton) *splitRef {
	if s.dwp != nil {
		return s.dwp.find(k, s.addr)
	}
	f, err := openDWO(k.path, false)
	if err != nil {
		return nil
	}
	defer f.close()
	return f.find(k, s.addr)
}

// open reads the split unit ref names; done releases what it holds.
func (s *splitSource) open(ref *splitRef) (su *splitUnit, done func(), err error) {
	f := s.dwp
	if ref.contribs == nil {
		if f, err = openDWO(ref.skel.path, false); err != nil {
			return nil, nil, err
		}
		done = f.close
	} else {
		done = func() {}
	}
	su, err = f.unit(ref, s.addr, s.ranges)
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("split DWARF unit %s: %w", ref.skel.name, err)
	}
	return su, done, nil
}

// close releases the package.
func (s *splitSource) close() {
	if s != nil && s.dwp != nil {
		s.dwp.close()
		s.dwp = nil
	}
}

// dwoFile is a .dwo file or a .dwp package: the .dwo sections and, for a
// package, its unit index.
type dwoFile struct {
	secs                                    *elfbin.Sections
	index                                   *unitIndex
	abbrev, info, str, strOffsets, rnglists []byte
}

// openDWO opens a .dwo file, or a package. As in LLVM, any ELF file
// opens as a package: one without .debug_info.dwo holds no unit, and one
// whose index cannot be read is searched unit by unit like a .dwo file.
func openDWO(path string, pkg bool) (*dwoFile, error) {
	secs, err := elfbin.OpenSections(path)
	if err != nil {
		return nil, err
	}
	f := &dwoFile{secs: secs}
	for _, sec := range []struct {
		name string
		dst  *[]byte
	}{
		{".debug_abbrev.dwo", &f.abbrev}, {".debug_info.dwo", &f.info}, {".debug_str.dwo", &f.str},
		{".debug_str_offsets.dwo", &f.strOffsets}, {".debug_rnglists.dwo", &f.rnglists},
	} {
		if *sec.dst, err = secs.Section(sec.name); err != nil {
			secs.Close()
			return nil, err
		}
	}
	if f.info == nil && !pkg {
		secs.Close()
		return nil, fmt.Errorf("%s: no .debug_info.dwo section", path)
	}
	if pkg {
		if idx, err := secs.Section(".debug_cu_index"); err == nil && idx != nil {
			f.index, _ = parseUnitIndex(idx)
		}
	}
	return f, nil
}

func (f *dwoFile) close() { f.secs.Close() }

// find looks up the split unit of k: by the index, or among the units of
// the file (a .dwo file, or a package without index).
func (f *dwoFile) find(k skeleton, addr []byte) *splitRef {
	if f.index != nil {
		c, ok := f.index.lookup(k.id)
		if !ok {
			return nil
		}
		return &splitRef{skel: k, contribs: c}
	}
	hs, ok := readUnitHeaders(bytes.NewReader(f.info))
	if !ok {
		return nil
	}
	var d *dwarf.Data
	for _, h := range hs {
		id := h.dwoID
		if h.version < 5 {
			if d == nil {
				su, err := f.unit(&splitRef{skel: k}, addr, nil)
				if err != nil {
					return nil
				}
				d = su.d
			}
			id = gnuDwoID(d, h.entry)
		} else if h.unitType != utSplitCompile {
			continue
		}
		if id == k.id {
			return &splitRef{skel: k, entry: h.entry}
		}
	}
	return nil
}

// gnuDwoID is the DW_AT_GNU_dwo_id of the unit DIE at off.
func gnuDwoID(d *dwarf.Data, off dwarf.Offset) uint64 {
	r := d.Reader()
	r.Seek(off)
	e, err := r.Next()
	if err != nil || e == nil {
		return 0
	}
	id, _ := e.Val(attrGNUDwoID).(int64)
	return uint64(id)
}

// errNoContribution: the index gives a unit no part of a section it needs.
var errNoContribution = errors.New("the package index gives no .debug_info.dwo or .debug_abbrev.dwo contribution")

// partOf is the part c of section b, nil when c lies outside b.
func partOf(b []byte, c contribution) []byte {
	end := uint64(c.off) + uint64(c.size)
	if end > uint64(len(b)) {
		return nil
	}
	return b[c.off:end:end]
}
