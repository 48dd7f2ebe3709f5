package sampleprof

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
)

// GCCOptions are the choices of the GCC AutoFDO writer.
type GCCOptions struct {
	// Version is GCCVersion2 (GCC 12 to 15; the default when 0) or
	// GCCVersion3 (GCC 16).
	Version uint32
	// FoldDiscriminators writes one location per line (gccForm), for GCC
	// 12, which drops discriminators when it reads; GCC 13 on use them.
	FoldDiscriminators bool
	// ZerosAsOne writes the zero body counts of every instance GCC 12
	// finds hot (counts adding up to 2 or more) as 1 (gccZerosAsOne).
	ZerosAsOne bool
}

// WriteGCC writes p as a GCC AutoFDO profile (gcov.go) in the form gccForm
// makes of it. Names are sorted, "" first; functions by name; locations in
// order, call targets by count; the working set is 128 zero entries (GCC
// does not read it; create_gcov's reader needs it); version 3 timestamps
// are 0.
func WriteGCC(w io.Writer, p *Profile, o GCCOptions) error {
	version := cmp.Or(o.Version, GCCVersion2)
	if version != GCCVersion2 && version != GCCVersion3 {
		return fmt.Errorf("GCC AutoFDO version %d: profgen writes versions 2 and 3", version)
	}
	q, err := gccForm(p, o)
	if err != nil {
		return err
	}
	e := &gcovEncoder{version: version}
	e.u32(0x67636461, version, 0)
	if version == GCCVersion3 {
		e.summary(ComputeSummary(q))
	}
	e.section(gcovTagNames, func(e *gcovEncoder) { e.nameTable(q) })
	e.section(gcovTagFunctions, func(e *gcovEncoder) { e.functions(q) })
	e.u32(gcovTagModules, 0, 0)
	e.u32(gcovTagWorkingSet, 3*gcovWorkingSets)
	e.buf = append(e.buf, make([]byte, 12*gcovWorkingSets)...)
	_, err = w.Write(e.buf)
	return err
}

// gcovEncoder appends words; index numbers the names.
type gcovEncoder struct {
	buf     []byte
	version uint32
	index   map[string]uint32
}

func (e *gcovEncoder) u32(vs ...uint32) {
	for _, v := range vs {
		e.buf = binary.LittleEndian.AppendUint32(e.buf, v)
	}
}

func (e *gcovEncoder) u64(vs ...uint64) {
	for _, v := range vs {
		e.u32(uint32(v), uint32(v>>32))
	}
}

// string writes s as versions 2 and 3 do: its byte length with the NUL,
// then its bytes and the NUL.
func (e *gcovEncoder) string(s string) {
	e.u32(uint32(len(s) + 1))
	e.buf = append(append(e.buf, s...), 0)
}

// section writes tag, the length in words of what body writes (rounded
// up: byte strings leave the words unaligned), and the body.
func (e *gcovEncoder) section(tag uint32, body func(*gcovEncoder)) {
	inner := &gcovEncoder{version: e.version, index: e.index}
	body(inner)
	e.index = inner.index
	e.u32(tag, uint32((len(inner.buf)+3)/4))
	e.buf = append(e.buf, inner.buf...)
}

// summary writes version 3's summary section.
func (e *gcovEncoder) summary(s *Summary) {
	e.u32(gcovTagSummary)
	e.u64(s.TotalCount, s.MaxCount, s.MaxFunctionCount, s.NumCounts, s.NumFunctions, uint64(len(s.Detailed)))
	for _, d := range s.Detailed {
		e.u32(uint32(d.Cutoff))
		e.u64(d.MinCount, d.NumCounts)
	}
}

// nameTable writes the string table (with version 3's source files) and
// numbers the names.
func (e *gcovEncoder) nameTable(p *Profile) {
	names := gccNames(p)
	files := gccFiles(p, names)
	if e.version == GCCVersion3 {
		e.u32(uint32(len(files)))
		for _, f := range files {
			e.string(f)
		}
	}
	e.index = make(map[string]uint32, len(names))
	e.u32(uint32(len(names)))
	for i, n := range names {
		e.index[n] = uint32(i)
		e.string(n)
		if e.version == GCCVersion3 {
			e.u32(fileIndex(files, p.SourceFiles, n))
		}
	}
}

// gccNames lists every name of p sorted, "" first.
func gccNames(p *Profile) []string {
	seen := map[string]bool{"": true}
	for _, f := range p.Functions {
		collectGCCNames(f, seen)
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func collectGCCNames(f *FunctionSamples, seen map[string]bool) {
	seen[f.Name] = true
	for _, r := range f.Body {
		for t := range r.CallTargets {
			seen[t] = true
		}
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			collectGCCNames(c, seen)
		}
	}
}

// gccFiles lists the source files of names, sorted.
func gccFiles(p *Profile, names []string) []string {
	var files []string
	for _, n := range names {
		if f, ok := p.SourceFiles[n]; ok {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	return slices.Compact(files)
}

func fileIndex(files []string, of map[string]string, name string) uint32 {
	f, ok := of[name]
	if !ok {
		return gcovNoFile
	}
	i, _ := slices.BinarySearch(files, f)
	return uint32(i)
}

// functions writes the top-level instances by name.
func (e *gcovEncoder) functions(p *Profile) {
	e.u32(uint32(len(p.Functions)))
	for _, name := range sortedKeys(p.Functions) {
		f := p.Functions[name]
		e.u64(f.HeadSamples)
		if e.version == GCCVersion3 {
			e.u64(0) // timestamp
		}
		e.instance(f)
	}
}

// instance writes f's name, positions and inlined call sites.
func (e *gcovEncoder) instance(f *FunctionSamples) {
	e.u32(e.index[f.Name], uint32(len(f.Body)), uint32(countInlinees(f)))
	for _, loc := range SortedLocations(f.Body) {
		r := f.Body[loc]
		e.u32(gcovOffset(loc), uint32(len(r.CallTargets)))
		e.u64(r.Samples)
		for _, t := range r.SortedCallTargets() {
			e.u32(gcovHistICTopN)
			e.u64(uint64(e.index[t.Name]), t.Count)
		}
	}
	for _, loc := range SortedLocations(f.Callsites) {
		for _, c := range SortedInlinees(f.Callsites[loc]) {
			e.u32(gcovOffset(loc))
			e.instance(c)
		}
	}
}

func countInlinees(f *FunctionSamples) int {
	n := 0
	for _, callees := range f.Callsites {
		n += len(callees)
	}
	return n
}
