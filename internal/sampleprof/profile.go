// Package sampleprof holds LLVM sample profiles (the SPGO / AutoFDO input of
// clang's -fprofile-sample-use) in memory, and reads and writes their
// encodings. Profiles flow in from the profile generator or from a reader,
// and out through a writer.
//
// The model follows LLVM's SampleProf.h: a function's samples are keyed by
// LineLocation (line offset from the function's start line, discriminator);
// a body record counts the samples of one location and the calls made there;
// inlined callees nest under the location of their call site.
//
// Encodings (one file each): text (text_reader.go, text_writer.go), binary
// and extbinary (binary_*.go, extbinary_*.go), GCC AutoFDO (gcov*.go: read
// in versions "*704", 1, 2 and 3, written in 2 and 3 in the form GCC
// matches, gcov_form.go); Read tells them apart by their first bytes. The writers produce the bytes llvm-profdata-19 merge --sample
// and llvm-profgen-19 write for the same profile: section layout and flags,
// sorted name table, MD5 names, symbol list, profile summary (summary.go).
// Merge adds profiles as llvm-profdata merge --sample does. The function
// metadata section (pseudo-probe checksums, attributes) lists functions in
// the order of LLVM's hash map of them (hashorder.go replays libstdc++'s)
// for profiles read or merged here; in profile order for generated ones
// (llvm-profgen's order follows the heap addresses of its probes). Where
// profgen differs from LLVM on purpose:
//   - merged profiles keep the flow-sensitive and pre-inlined flags if any
//     input has them (llvm-profdata keeps whatever its last reader set);
//   - a text header of digits without colons is an error (LLVM reads a
//     function named by the digits).
//
// Context-sensitive (CSSPGO) profiles: nested ones are plain profiles with
// context attributes; flat ones (Profile.CS) key each profile by its
// calling context ("[main:1 @ foo]" in text, the CS name table in
// extbinary; the binary format has no room for them, as in LLVM), each
// FunctionSamples carrying its Context. Where profgen differs from LLVM
// for these: the function metadata section of a CS extbinary lists the
// contexts in context order, LLVM in its hash map's order.
package sampleprof

import (
	"sort"
)

// LineLocation is a position inside a function: the line offset from the
// function's start line and the DWARF base discriminator.
type LineLocation struct {
	LineOffset    uint32
	Discriminator uint32
}

// Less orders locations as LLVM does: by line offset, then discriminator.
func (l LineLocation) Less(o LineLocation) bool {
	if l.LineOffset != o.LineOffset {
		return l.LineOffset < o.LineOffset
	}
	return l.Discriminator < o.Discriminator
}

// SampleRecord counts the samples of one location and, for a call
// instruction there, how often each callee was called.
type SampleRecord struct {
	Samples     uint64
	CallTargets map[string]uint64
}

// FunctionSamples is the profile of one function, top-level or inlined.
type FunctionSamples struct {
	Name         string // linkage (mangled) name
	TotalSamples uint64
	HeadSamples  uint64 // written for top-level functions only
	// Checksum is the CFG checksum of a pseudo-probe profile: body
	// locations are then probe ids, not line offsets.
	Checksum uint64
	// Attributes are LLVM's context attributes (ContextWasInlined 1,
	// ContextShouldBeInlined 2, ContextDuplicatedIntoBase 4), set by
	// llvm-profgen's pre-inliner in nested context-sensitive profiles.
	Attributes uint32
	// Context is the calling context of a profile in a flat
	// context-sensitive profile (Profile.CS), outermost frame first, the
	// last frame this function; nil otherwise.
	Context []ContextFrame
	Body    map[LineLocation]*SampleRecord
	// Callsites maps a call site to the inlined callees there, by name.
	Callsites map[LineLocation]map[string]*FunctionSamples
	// VTables are the vtable type counts by location (LLVM 22,
	// vtables.go); nil when there are none.
	VTables map[LineLocation]TypeCounts
}

// Context attributes (SampleProf.h ContextAttributeMask).
const (
	ContextWasInlined         = 1
	ContextShouldBeInlined    = 2
	ContextDuplicatedIntoBase = 4
)

// NewFunctionSamples returns an empty profile of the function name.
func NewFunctionSamples(name string) *FunctionSamples {
	return &FunctionSamples{
		Name:      name,
		Body:      map[LineLocation]*SampleRecord{},
		Callsites: map[LineLocation]map[string]*FunctionSamples{},
	}
}

// Record returns the body record at loc, creating it.
func (f *FunctionSamples) Record(loc LineLocation) *SampleRecord {
	r := f.Body[loc]
	if r == nil {
		r = &SampleRecord{}
		f.Body[loc] = r
	}
	return r
}

// AddCallTarget counts n calls from loc to callee.
func (f *FunctionSamples) AddCallTarget(loc LineLocation, callee string, n uint64) {
	r := f.Record(loc)
	if r.CallTargets == nil {
		r.CallTargets = map[string]uint64{}
	}
	r.CallTargets[callee] += n
}

// Inlinee returns the profile of callee inlined at loc, creating it.
func (f *FunctionSamples) Inlinee(loc LineLocation, callee string) *FunctionSamples {
	m := f.Callsites[loc]
	if m == nil {
		m = map[string]*FunctionSamples{}
		f.Callsites[loc] = m
	}
	c := m[callee]
	if c == nil {
		c = NewFunctionSamples(callee)
		m[callee] = c
	}
	return c
}

// Profile is a whole sample profile: the top-level functions by name.
type Profile struct {
	Functions map[string]*FunctionSamples
	// MD5 says the names are decimal MD5 hashes of the real names, as read
	// from a profile whose name table holds MD5s. Such names sort by value,
	// and an MD5 writer stores the number itself rather than its hash.
	MD5 bool
	// FSDiscriminators says discriminators are flow-sensitive ones (the
	// binary defines __llvm_fs_discriminator__); extbinary records it in a
	// summary section flag.
	FSDiscriminators bool
	// ProbeBased says locations are pseudo-probe ids and every function
	// carries its CFG checksum (clang -fpseudo-probe-for-profiling).
	ProbeBased bool
	// PreInlined says the pre-inliner decided inlining (functions carry
	// ContextShouldBeInlined attributes); extbinary keeps it as a flag.
	PreInlined bool
	// CS says the profile is context-sensitive and flat: Functions are
	// keyed by ContextString of each profile's Context.
	CS bool
	// SymbolList is the extbinary ProfileSymbolList: the functions of the
	// profiled binary, so the compiler can tell "not sampled" from "new".
	// Nil when the profile has none.
	SymbolList []string
	// SourceFiles maps a top-level or inlined function's name to its
	// source file, where known (version 3 GCC AutoFDO profiles keep them;
	// LLVM's encodings do not). Nil when there are none.
	SourceFiles map[string]string
	// inserted lists the top-level functions in the order LLVM would
	// insert them into the map it writes (that of llvm-profdata merge: the
	// iteration order of its reader's map), when known (hashorder.go).
	inserted []string
}

// NewProfile returns an empty profile.
func NewProfile() *Profile {
	return &Profile{Functions: map[string]*FunctionSamples{}}
}

// Function returns the top-level profile of name, creating it.
func (p *Profile) Function(name string) *FunctionSamples {
	f := p.Functions[name]
	if f == nil {
		f = NewFunctionSamples(name)
		p.Functions[name] = f
	}
	return f
}

// insertFunction returns the top-level profile of name, creating it and
// noting the insertion, for profiles whose map order LLVM's would follow.
func (p *Profile) insertFunction(name string) *FunctionSamples {
	if p.Functions[name] == nil {
		p.inserted = append(p.inserted, name)
	}
	return p.Function(name)
}

// SortedFunctions returns the top-level functions in LLVM's writing order:
// total samples descending, then name.
func (p *Profile) SortedFunctions() []*FunctionSamples {
	fs := make([]*FunctionSamples, 0, len(p.Functions))
	for _, f := range p.Functions {
		fs = append(fs, f)
	}
	less := nameLess(p.MD5)
	if p.CS {
		less = nil
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].TotalSamples != fs[j].TotalSamples {
			return fs[i].TotalSamples > fs[j].TotalSamples
		}
		if less == nil {
			return contextLess(fs[i].Context, fs[j].Context)
		}
		return less(fs[i].Name, fs[j].Name)
	})
	return fs
}

// SortedLocations returns the keys of m in LineLocation order.
func SortedLocations[V any](m map[LineLocation]V) []LineLocation {
	locs := make([]LineLocation, 0, len(m))
	for l := range m {
		locs = append(locs, l)
	}
	sort.Slice(locs, func(i, j int) bool { return locs[i].Less(locs[j]) })
	return locs
}

// CallTarget is one callee of a call site with its count.
type CallTarget struct {
	Name  string
	Count uint64
}

// SortedCallTargets returns the call targets in LLVM's order: count
// descending, then name.
func (r *SampleRecord) SortedCallTargets() []CallTarget {
	return r.sortedCallTargets(nameLess(false))
}

func (r *SampleRecord) sortedCallTargets(less func(a, b string) bool) []CallTarget {
	ts := make([]CallTarget, 0, len(r.CallTargets))
	for n, c := range r.CallTargets {
		ts = append(ts, CallTarget{n, c})
	}
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].Count != ts[j].Count {
			return ts[i].Count > ts[j].Count
		}
		return less(ts[i].Name, ts[j].Name)
	})
	return ts
}

// SortedInlinees returns the callees inlined at one call site by name.
func SortedInlinees(m map[string]*FunctionSamples) []*FunctionSamples {
	return sortedInlinees(m, nameLess(false))
}

func sortedInlinees(m map[string]*FunctionSamples, less func(a, b string) bool) []*FunctionSamples {
	fs := make([]*FunctionSamples, 0, len(m))
	for _, f := range m {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return less(fs[i].Name, fs[j].Name) })
	return fs
}

// nameLess returns LLVM's FunctionId order: bytewise for names, by value
// for MD5 hashes (decimal strings without leading zeros).
func nameLess(md5 bool) func(a, b string) bool {
	if !md5 {
		return func(a, b string) bool { return a < b }
	}
	return func(a, b string) bool {
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return a < b
	}
}
