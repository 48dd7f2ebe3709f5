// Package instrprof holds the in-memory model of an LLVM instrumentation
// profile: per-function records keyed by (name, CFG hash) with counters,
// MC/DC bitmap bytes and value-profile sites, and the rules llvm-profdata
// uses to merge them. Readers (raw, indexed) feed records in; writers
// (indexed, text) take a finished Profile out.
package instrprof

import (
	"cmp"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sort"
)

// Kind holds the variant bits of a profile version word (its high 32 bits).
type Kind uint64

// Variant bits shared by raw and indexed version words (InstrProfData.inc).
const (
	KindIR                Kind = 1 << 56
	KindCS                Kind = 1 << 57
	KindEntryFirst        Kind = 1 << 58
	KindDebugCorrelate    Kind = 1 << 59
	KindByteCoverage      Kind = 1 << 60
	KindFunctionEntryOnly Kind = 1 << 61
	KindMemProf           Kind = 1 << 62
	KindTemporal          Kind = 1 << 63
	KindMask              Kind = 0xffffffff00000000
)

// Value-profile kinds.
const (
	ValueIndirectCall = 0
	ValueMemOPSize    = 1
	ValueVTable       = 2
	NumValueKinds     = 3
)

// CSFlagInHash marks the CFG hash of a context-sensitive record.
const CSFlagInHash = uint64(1) << 60

// Value is one profiled value of a value site and how often it was seen.
type Value struct {
	Value, Count uint64
}

// Record is one function's profile. Readers may reuse a Record's slices
// between calls; Profile.Add copies what it keeps.
type Record struct {
	Name   string
	Hash   uint64
	Counts []uint64
	Bitmap []byte
	// Sites[kind][site] lists the values seen at a value site. For indirect
	// calls and vtables the values are MD5 name references.
	Sites [NumValueKinds][][]Value
}

// NameRef is the MD5-based reference LLVM uses for a PGO name: the low 64
// bits of MD5(name), read little-endian.
func NameRef(name string) uint64 {
	sum := md5.Sum([]byte(name))
	return binary.LittleEndian.Uint64(sum[:8])
}

// HasValues reports whether any value kind has sites.
func (r *Record) HasValues() bool {
	for k := range r.Sites {
		if len(r.Sites[k]) > 0 {
			return true
		}
	}
	return false
}

// Origin says where a record was first read, for error messages.
type Origin struct {
	File   string
	Offset int64
}

// Func is one merged record of a Profile.
type Func struct {
	Record
	Origin Origin
}

type key struct{ ref, hash uint64 }

// Profile is a set of merged records with the profile's kind and the binary
// ids of its inputs. Memory grows with the number of distinct functions.
type Profile struct {
	Kind      Kind
	BinaryIDs map[string]bool
	// funcs holds the records by name reference; a name rarely has more
	// than one CFG hash, and a uint64 key keeps the hot lookup cheap.
	funcs map[uint64][]*Func
	// many indexes the records of the name references with more than
	// manyHashes CFG hashes, so that a hostile file of one name with a
	// million hashes does not make lookup quadratic.
	many map[funcKey]*Func
	n    int
}

type funcKey struct{ ref, hash uint64 }

// manyHashes is how many records of one name are searched linearly.
const manyHashes = 8

// NewProfile returns an empty profile.
func NewProfile() *Profile {
	return &Profile{BinaryIDs: map[string]bool{}, funcs: map[uint64][]*Func{}}
}

// Len is the number of records.
func (p *Profile) Len() int { return p.n }

// lookup returns the record with name reference ref and CFG hash hash.
func (p *Profile) lookup(ref, hash uint64) *Func {
	fs := p.funcs[ref]
	if len(fs) > manyHashes {
		return p.many[funcKey{ref, hash}]
	}
	for _, f := range fs {
		if f.Hash == hash {
			return f
		}
	}
	return nil
}

func (p *Profile) insert(ref uint64, f *Func) {
	fs := append(p.funcs[ref], f)
	p.funcs[ref] = fs
	p.n++
	switch {
	case len(fs) == manyHashes+1:
		if p.many == nil {
			p.many = map[funcKey]*Func{}
		}
		for _, g := range fs {
			p.many[funcKey{ref, g.Hash}] = g
		}
	case len(fs) > manyHashes+1:
		p.many[funcKey{ref, f.Hash}] = f
	}
}

// MismatchError reports a record whose shape (number of counters, bitmap
// bytes or value sites) differs from an earlier record of the same name
// and hash.
type MismatchError struct {
	Name      string
	Hash      uint64
	What      string
	Got, Want int
	At, First Origin
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%s: offset %#x: function %q (hash %#x) has %d %s, but %d in %s at offset %#x (not from the same binary?)",
		e.At.File, e.At.Offset, e.Name, e.Hash, e.Got, e.What, e.Want, e.First.File, e.First.Offset)
}

// Add merges rec, scaled by weight (≥1), into p. ref is NameRef(rec.Name)
// when the caller knows it, else 0. A shape mismatch with an earlier record
// returns a *MismatchError and leaves p unchanged.
func (p *Profile) Add(rec *Record, ref uint64, weight uint64, at Origin) error {
	if ref == 0 {
		ref = NameRef(rec.Name)
	}
	f := p.lookup(ref, rec.Hash)
	if f == nil {
		f = &Func{Record: cloneRecord(rec), Origin: at}
		if weight > 1 {
			scaleRecord(&f.Record, weight)
		}
		sortSitesByCount(&f.Record)
		p.insert(ref, f)
		return nil
	}
	if err := checkShape(f, rec, at); err != nil {
		return err
	}
	mergeInto(&f.Record, rec, weight)
	sortSitesByCount(&f.Record)
	return nil
}

// AddProfile merges every record of q into p (weight 1), in q's sorted order.
func (p *Profile) AddProfile(q *Profile) error {
	p.Kind |= q.Kind
	for id := range q.BinaryIDs {
		p.BinaryIDs[id] = true
	}
	for _, k := range q.sortedKeys() {
		g := q.lookup(k.ref, k.hash)
		f := p.lookup(k.ref, k.hash)
		if f == nil {
			p.insert(k.ref, g)
			continue
		}
		if err := checkShape(f, &g.Record, g.Origin); err != nil {
			return err
		}
		mergeInto(&f.Record, &g.Record, 1)
		sortSitesByCount(&f.Record)
	}
	return nil
}

// DropZero removes the records whose counters and bitmap bytes are all
// zero (llvm-profdata merge --sparse).
func (p *Profile) DropZero() {
	for ref, fs := range p.funcs {
		kept := fs[:0]
		indexed := len(fs) > manyHashes
		for _, f := range fs {
			switch {
			case !f.isZero():
				kept = append(kept, f)
			case indexed:
				delete(p.many, funcKey{ref, f.Hash})
			}
		}
		p.n -= len(fs) - len(kept)
		if len(kept) == 0 {
			delete(p.funcs, ref)
		} else {
			p.funcs[ref] = kept
		}
	}
}

func (r *Record) isZero() bool {
	for _, c := range r.Counts {
		if c != 0 {
			return false
		}
	}
	for _, b := range r.Bitmap {
		if b != 0 {
			return false
		}
	}
	return true
}

// Funcs returns the records sorted by name, then hash. Value sites are in
// LLVM's order: by count, highest first; ties in input order for a record
// read once, by value once merged.
func (p *Profile) Funcs() []*Func {
	out := make([]*Func, 0, p.n)
	for _, fs := range p.funcs {
		out = append(out, fs...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Hash < out[j].Hash
	})
	return out
}

func (p *Profile) sortedKeys() []key {
	keys := make([]key, 0, p.n)
	for ref, fs := range p.funcs {
		for _, f := range fs {
			keys = append(keys, key{ref, f.Hash})
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].ref != keys[j].ref {
			return keys[i].ref < keys[j].ref
		}
		return keys[i].hash < keys[j].hash
	})
	return keys
}

func checkShape(f *Func, rec *Record, at Origin) error {
	mis := func(what string, got, want int) error {
		return &MismatchError{Name: rec.Name, Hash: rec.Hash, What: what, Got: got, Want: want, At: at, First: f.Origin}
	}
	if len(rec.Counts) != len(f.Counts) {
		return mis("counters", len(rec.Counts), len(f.Counts))
	}
	if len(rec.Bitmap) != len(f.Bitmap) {
		return mis("bitmap bytes", len(rec.Bitmap), len(f.Bitmap))
	}
	for k := range rec.Sites {
		if len(rec.Sites[k]) != len(f.Sites[k]) {
			return mis(fmt.Sprintf("value sites of kind %d", k), len(rec.Sites[k]), len(f.Sites[k]))
		}
	}
	return nil
}

func cloneRecord(r *Record) Record {
	c := Record{Name: r.Name, Hash: r.Hash}
	c.Counts = append([]uint64(nil), r.Counts...)
	if len(r.Bitmap) > 0 {
		c.Bitmap = append([]byte(nil), r.Bitmap...)
	}
	for k := range r.Sites {
		if len(r.Sites[k]) == 0 {
			continue
		}
		c.Sites[k] = make([][]Value, len(r.Sites[k]))
		for s, vs := range r.Sites[k] {
			if len(vs) > 0 {
				c.Sites[k][s] = append([]Value(nil), vs...)
			}
		}
	}
	return c
}

// satMulAdd returns a*w + b, saturating at the maximum uint64.
func satMulAdd(a, w, b uint64) uint64 {
	hi, lo := bits.Mul64(a, w)
	if hi != 0 {
		return ^uint64(0)
	}
	s, carry := bits.Add64(lo, b, 0)
	if carry != 0 {
		return ^uint64(0)
	}
	return s
}

func scaleRecord(r *Record, w uint64) {
	for i, c := range r.Counts {
		r.Counts[i] = satMulAdd(c, w, 0)
	}
	for k := range r.Sites {
		for _, vs := range r.Sites[k] {
			for i := range vs {
				vs[i].Count = satMulAdd(vs[i].Count, w, 0)
			}
		}
	}
}

func mergeInto(dst, src *Record, w uint64) {
	for i, c := range src.Counts {
		dst.Counts[i] = satMulAdd(c, w, dst.Counts[i])
	}
	for i, b := range src.Bitmap {
		dst.Bitmap[i] |= b
	}
	for k := range src.Sites {
		for s, vs := range src.Sites[k] {
			dst.Sites[k][s] = mergeSite(dst.Sites[k][s], vs, w)
		}
	}
}

// mergeSite merges src into dst: both sorted by value, matching values add
// count*w, values only in src come in as count*w. (llvm-profdata 19 adds
// those unscaled, so its result with --weighted-input depends on which
// file it happened to read first; profgen scales them, which is the same
// whatever the order.)
func mergeSite(dst, src []Value, w uint64) []Value {
	sortValues(dst)
	sortValues(src) // src belongs to a reader's scratch or a discarded partial
	if sameValues(dst, src) {
		for i, v := range src {
			dst[i].Count = satMulAdd(v.Count, w, dst[i].Count)
		}
		return dst
	}
	out := make([]Value, 0, max(len(dst), len(src)))
	i := 0
	for _, v := range src {
		for i < len(dst) && dst[i].Value < v.Value {
			out = append(out, dst[i])
			i++
		}
		if i < len(dst) && dst[i].Value == v.Value {
			out = append(out, Value{v.Value, satMulAdd(v.Count, w, dst[i].Count)})
			i++
			continue
		}
		out = append(out, Value{v.Value, satMulAdd(v.Count, w, 0)})
	}
	return append(out, dst[i:]...)
}

func sameValues(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Value != b[i].Value {
			return false
		}
	}
	return true
}

func byValue(a, b Value) int { return cmp.Compare(a.Value, b.Value) }

// byCount orders by count, highest first.
func byCount(a, b Value) int { return cmp.Compare(b.Count, a.Count) }

func sortValues(vs []Value) {
	if !slices.IsSortedFunc(vs, byValue) {
		slices.SortStableFunc(vs, byValue)
	}
}

// maxValuesPerSite is how many values LLVM keeps per site.
const maxValuesPerSite = 255

// sortSitesByCount orders every site by count, highest first, keeping the
// order of equal counts, and keeps the top 255 (LLVM's sortValueData).
func sortSitesByCount(r *Record) {
	for k := range r.Sites {
		for s, vs := range r.Sites[k] {
			if !slices.IsSortedFunc(vs, byCount) {
				slices.SortStableFunc(vs, byCount)
			}
			if len(vs) > maxValuesPerSite {
				r.Sites[k][s] = vs[:maxValuesPerSite]
			}
		}
	}
}

// CollapseSite sums the counts of repeated values in a site, keeping the
// first position: indirect-call targets outside the profiled code all map
// to 0, and keeping them apart would make merging order-dependent.
func CollapseSite(vs []Value) []Value {
	out := vs[:0]
	for _, v := range vs {
		i := 0
		for i < len(out) && out[i].Value != v.Value {
			i++
		}
		if i < len(out) {
			out[i].Count = satMulAdd(v.Count, 1, out[i].Count)
			continue
		}
		out = append(out, v)
	}
	return out
}
