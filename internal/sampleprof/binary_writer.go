package sampleprof

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/profgen/profgen/internal/leb128"
	"github.com/profgen/profgen/internal/quote"
)

// WriteOptions tunes the binary writers.
type WriteOptions struct {
	// UseMD5 names functions by MD5 hash (extbinary only), as
	// llvm-profgen --use-md5 and llvm-profdata merge --use-md5 do.
	UseMD5 bool
	// Compress zlib-compresses every extbinary section, as llvm-profdata
	// merge --compress-all-sections.
	Compress bool
	// Partial flags the profile as partial (--gen-partial-profile): the
	// compiler then keeps its static estimates for functions left out.
	Partial bool
	// SplitLayout writes the extbinary split layout (llvm-profdata 20's
	// merge --split-layout, LLVM's CtxSplitLayout): the functions with
	// inlinees in one profile section and function offset table, the
	// others in a second pair flagged flat.
	SplitLayout bool
	// VTables writes the vtable type counts (extbinary only), as
	// llvm-profdata-22's --extbinary-write-vtable-type-prof; without it
	// they are dropped, as LLVM 22 does by default.
	VTables bool
	// GCC are the GCC AutoFDO writer's options (FormatGCC).
	GCC GCCOptions
}

// WriteBinary writes p in LLVM's SPF_Binary format: magic and version,
// the profile summary, the name table, then each function's profile.
// It has no room for pseudo-probe checksums, so, as LLVM, it refuses
// probe-based profiles.
func WriteBinary(w io.Writer, p *Profile) error {
	if p.ProbeBased {
		return errors.New("pseudo-probe profiles need the extbinary or text format")
	}
	if p.CS {
		return errors.New("context-sensitive profiles need the extbinary or text format")
	}
	names, err := newNameTable(p, false)
	if err != nil {
		return err
	}
	if err := names.checkStrings(); err != nil {
		return err
	}
	var e encoder
	e.uleb(magicBinary)
	e.uleb(formatVersion)
	e.summary(ComputeSummary(p))
	e.names(names, false)
	for _, f := range p.SortedFunctions() {
		e.function(f, names)
	}
	_, err = w.Write(e.buf)
	return err
}

// encoder appends LLVM's encodings to a buffer.
type encoder struct{ buf []byte }

func (e *encoder) uleb(v uint64) { e.buf = leb128.AppendUint(e.buf, v) }

func (e *encoder) u64(v uint64) { e.buf = binary.LittleEndian.AppendUint64(e.buf, v) }

func (e *encoder) cstring(s string) {
	e.buf = append(e.buf, s...)
	e.buf = append(e.buf, 0)
}

func (e *encoder) summary(s *Summary) {
	e.uleb(s.TotalCount)
	e.uleb(s.MaxCount)
	e.uleb(s.MaxFunctionCount)
	e.uleb(s.NumCounts)
	e.uleb(s.NumFunctions)
	e.uleb(uint64(len(s.Detailed)))
	for _, d := range s.Detailed {
		e.uleb(d.Cutoff)
		e.uleb(d.MinCount)
		e.uleb(d.NumCounts)
	}
}

// names writes the name table: strings, or fixed-length MD5s.
func (e *encoder) names(t *nameTable, md5 bool) {
	e.uleb(uint64(len(t.names)))
	for i, n := range t.names {
		if md5 {
			e.u64(t.hashes[i])
		} else {
			e.cstring(n)
		}
	}
}

// function writes a top-level profile: head samples, then the body.
func (e *encoder) function(f *FunctionSamples, t *nameTable) {
	e.uleb(f.HeadSamples)
	e.body(f, t)
}

// body writes name, total, the body records in location order with their
// call targets, then the inlined callees of each call site.
func (e *encoder) body(f *FunctionSamples, t *nameTable) {
	e.uleb(t.index[f.Name])
	e.bodyRest(f, t)
}

// bodyRest writes a body after the function's name (or context) index.
func (e *encoder) bodyRest(f *FunctionSamples, t *nameTable) {
	e.uleb(f.TotalSamples)
	e.uleb(uint64(len(f.Body)))
	for _, loc := range SortedLocations(f.Body) {
		r := f.Body[loc]
		e.location(loc)
		e.uleb(r.Samples)
		e.uleb(uint64(len(r.CallTargets)))
		for _, ct := range r.sortedCallTargets(t.less) {
			e.uleb(t.index[ct.Name])
			e.uleb(ct.Count)
		}
	}
	n := 0
	for _, callees := range f.Callsites {
		n += len(callees)
	}
	e.uleb(uint64(n))
	for _, loc := range SortedLocations(f.Callsites) {
		for _, c := range sortedInlinees(f.Callsites[loc], t.less) {
			e.location(loc)
			e.body(c, t)
		}
	}
	if t.vtables {
		e.vtables(f, t)
	}
}

func (e *encoder) location(loc LineLocation) {
	e.uleb(uint64(loc.LineOffset))
	e.uleb(uint64(loc.Discriminator))
}

// nameTable holds every name a profile mentions (functions, inlinees, call
// targets, and with vtables the vtables), sorted, with each name's index.
type nameTable struct {
	names   []string
	hashes  []uint64 // MD5 of each name (the name itself in an MD5 profile)
	index   map[string]uint64
	less    func(a, b string) bool
	vtables bool // the profiles carry their vtable type counts
}

func newNameTable(p *Profile, vtables bool) (*nameTable, error) {
	t := &nameTable{index: map[string]uint64{}, less: nameLess(p.MD5), vtables: vtables}
	for _, f := range p.Functions {
		t.collect(f)
	}
	for n := range t.index {
		t.names = append(t.names, n)
	}
	sort.Slice(t.names, func(i, j int) bool { return t.less(t.names[i], t.names[j]) })
	for i, n := range t.names {
		t.index[n] = uint64(i)
		h, err := nameHash(n, p.MD5)
		if err != nil {
			return nil, err
		}
		t.hashes = append(t.hashes, h)
	}
	return t, nil
}

func (t *nameTable) collect(f *FunctionSamples) {
	t.index[f.Name] = 0
	for _, fr := range f.Context {
		t.index[fr.Func] = 0
	}
	for _, r := range f.Body {
		for n := range r.CallTargets {
			t.index[n] = 0
		}
	}
	for _, callees := range f.Callsites {
		for _, c := range callees {
			t.collect(c)
		}
	}
	if t.vtables {
		t.collectVTables(f)
	}
}

// checkStrings reports a name a string table cannot hold.
func (t *nameTable) checkStrings() error {
	for _, n := range t.names {
		if strings.IndexByte(n, 0) >= 0 {
			return fmt.Errorf("function name %s holds a NUL byte", quote.String(n))
		}
	}
	return nil
}

// nameHash is the MD5 a name is stored as: its hash, or in an MD5 profile
// the number it already is.
func nameHash(name string, isMD5 bool) (uint64, error) {
	if !isMD5 {
		return MD5Name(name), nil
	}
	h, err := strconv.ParseUint(name, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("MD5 profile has a name that is no MD5: %s", quote.String(name))
	}
	return h, nil
}
