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
	"github.com/profgen/profgen/internal/instrprof/memprof"
	"maps"
	"math/bits"
	"slices"
	"sort"

	"github.com/profgen/profgen/internal/quote"
)

// Kind holds the variant bits of a profile version word (its high 32 bits).
type Kind uint64

// Variant bits shared by raw and indexed version words (InstrProfData.inc).
const (
	KindLoopEntries       Kind = 1 << 55 // LLVM 20 and later: loop entry blocks always instrumented
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
	Input  int // index of the file among the merge's inputs
	Offset int64
}

// Func is one merged record of a Profile.
type Func struct {
	Record
	Origin Origin
	// Overflowed is set when a count was clamped while merging (weights
	// or sums beyond MaxCount): llvm-profdata's "counter overflow".
	Overflowed bool
	ref        uint64  // NameRef(Name), the key the profile files it under
	records    int     // how many input records were merged into this one
	others     []*Func // records of this name and hash of another shape
	first      map[valueKey]firstValue
}

// Counter limits. LLVM clamps merged counters at MaxCount, keeping the two
// values above it for pseudo counts: a record whose first counter is
// PseudoHot or PseudoWarm stands for a hot or warm function whose real
// counts are unknown (llvm-profdata --supplement-instr-with-sample).
const (
	PseudoHot  = ^uint64(0)
	PseudoWarm = ^uint64(0) - 1
	MaxCount   = ^uint64(0) - 2
)

// PseudoKind returns PseudoHot or PseudoWarm when r holds pseudo counts,
// else 0.
func (r *Record) PseudoKind() uint64 {
	if len(r.Counts) > 0 && r.Counts[0] > MaxCount {
		return r.Counts[0]
	}
	return 0
}

type key struct{ ref, hash uint64 }

// Profile is a set of merged records with the profile's kind and the binary
// ids of its inputs. Memory grows with the number of distinct functions.
type Profile struct {
	Kind      Kind
	BinaryIDs map[string]bool
	// Traces are the temporal profile traces, TraceStream how many traces
	// the inputs saw (more than Traces when a reservoir was full).
	Traces      []Trace
	TraceStream uint64
	// VTableNames are the vtable names an indexed profile keeps
	// (llvm-profdata merge --keep-vtable-symbols); nil for none.
	VTableNames map[string]bool
	// TrackFirstValues makes the merge weigh value counts as llvm-profdata
	// does (see firstvalues.go); set it before adding weighted records.
	TrackFirstValues bool
	// MemProf is the heap profile of the indexed profile's MemProf
	// section, written when Kind has KindMemProf (empty when nil, as
	// llvm-profdata writes for indexed inputs of that kind, whose MemProf
	// data it does not merge); MemProfWrite chooses its format.
	MemProf      *memprof.Data
	MemProfWrite memprof.WriteOptions
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
	Records   int // records of this shape dropped (from At on)
	// CountersMerged says the records' counters were added to the first
	// shape's, as LLVM does when only the bitmap sizes differ.
	CountersMerged bool
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%s: offset %#x: function %s (hash %#x) has %d %s, but %d in %s at offset %#x (not from the same binary?)",
		e.At.File, e.At.Offset, quote.String(e.Name), e.Hash, e.Got, e.What, e.Want, e.First.File, e.First.Offset)
}

// Add merges rec, scaled by weight (≥1), into p. ref is NameRef(rec.Name)
// when the caller knows it, else 0. A record whose shape (counters, bitmap
// bytes, value sites, pseudo counts) differs from an earlier one of the same
// name and hash is kept aside, summed with those of its shape, until
// Resolve keeps the shape read first. Add never fails today; the error
// result stays for readers' callbacks.
func (p *Profile) Add(rec *Record, ref uint64, weight uint64, at Origin) error {
	p.AddNear(rec, ref, weight, at, nil)
	return nil
}

// AddNear is Add for a reader of file after file of one layout (raws of
// one binary), who keeps, per record position, the record AddNear returned
// for the previous file: given as near, it saves the lookup when its name
// reference and hash are rec's. It returns the record of p that rec's name
// and hash are filed under (nil near is a plain Add).
func (p *Profile) AddNear(rec *Record, ref uint64, weight uint64, at Origin, near *Func) *Func {
	if ref == 0 {
		ref = NameRef(rec.Name)
	}
	f := near
	if f == nil || f.ref != ref || f.Hash != rec.Hash {
		f = p.lookup(ref, rec.Hash)
	}
	var g *Func
	if f != nil {
		g = f.sameShape(rec)
	}
	switch {
	case f == nil:
		g = newFunc(rec, ref, weight, at)
		p.insert(ref, g)
		f = g
	case g != nil:
		g.absorb(rec, weight, at)
	default:
		g = newFunc(rec, ref, weight, at)
		f.others = append(f.others, g)
	}
	if p.TrackFirstValues && rec.HasValues() {
		g.noteValues(rec, weight, at)
	}
	return f
}

func newFunc(rec *Record, ref, weight uint64, at Origin) *Func {
	f := &Func{Record: cloneRecord(rec), Origin: at, ref: ref, records: 1}
	if weight > 1 {
		f.Overflowed = scaleRecord(&f.Record, weight)
	}
	sortSitesByCount(&f.Record)
	return f
}

// sameShape returns f or the record kept aside with f that rec merges into.
func (f *Func) sameShape(rec *Record) *Func {
	if checkShape(f, rec, Origin{}) == nil && (f.PseudoKind() == 0) == (rec.PseudoKind() == 0) {
		return f
	}
	for _, g := range f.others {
		if g.sameShape(rec) != nil {
			return g
		}
	}
	return nil
}

// absorb merges rec*weight into f, which has its shape: pseudo counts
// give the hotter kind, as in LLVM; counts add, clamped at MaxCount.
func (f *Func) absorb(rec *Record, weight uint64, at Origin) {
	if a, b := f.PseudoKind(), rec.PseudoKind(); a != 0 {
		f.Counts[0] = max(a, b)
	} else {
		f.Overflowed = mergeInto(&f.Record, rec, weight) || f.Overflowed
		sortSitesByCount(&f.Record)
	}
	if at.Before(f.Origin) {
		f.Origin = at
	}
	f.records++
}

// Before orders origins by input, then offset.
func (o Origin) Before(p Origin) bool {
	if o.Input != p.Input {
		return o.Input < p.Input
	}
	return o.Offset < p.Offset
}

// AddProfile merges every record of q into p (weight 1), in q's sorted order.
func (p *Profile) AddProfile(q *Profile) error {
	p.Kind |= q.Kind
	for id := range q.BinaryIDs {
		p.BinaryIDs[id] = true
	}
	p.AddVTableNames(slices.Collect(maps.Keys(q.VTableNames)))
	for _, k := range q.sortedKeys() {
		g := q.lookup(k.ref, k.hash)
		f := p.lookup(k.ref, k.hash)
		if f == nil {
			p.insert(k.ref, g)
			continue
		}
		others := g.others
		g.others = nil
		for _, h := range append([]*Func{g}, others...) {
			f.addFunc(h)
		}
	}
	return nil
}

// AddVTableNames adds names to the vtable names kept.
func (p *Profile) AddVTableNames(names []string) {
	if len(names) > 0 && p.VTableNames == nil {
		p.VTableNames = map[string]bool{}
	}
	for _, n := range names {
		p.VTableNames[n] = true
	}
}

// addFunc merges h, a partial merge of the same name and hash, into f.
func (f *Func) addFunc(h *Func) {
	g := f.sameShape(&h.Record)
	if g == nil {
		f.others = append(f.others, h)
		return
	}
	g.absorb(&h.Record, 1, h.Origin)
	g.records += h.records - 1
	g.Overflowed = g.Overflowed || h.Overflowed
	g.mergeFirst(h)
}

// Resolve keeps, for every name and hash read with several shapes, the
// largest shape (shapeBefore), and returns the records it dropped. Where
// llvm-profdata keeps the shape it read first, and so answers by the order
// of its inputs, this answers the same for any order, thread count and
// grouping: the largest shape of a merge is the largest of its parts'.
// Records whose bitmap size alone differs give their counters to the kept
// shape, as in LLVM.
func (p *Profile) Resolve() []*MismatchError {
	var dropped []*MismatchError
	for _, k := range p.sortedKeys() {
		fs := p.funcs[k.ref]
		for i, f := range fs {
			if f.Hash == k.hash && len(f.others) > 0 {
				fs[i] = f.resolve(&dropped)
			}
			if f := fs[i]; f.Hash == k.hash && f.first != nil {
				f.unscaleFirstValues()
			}
		}
	}
	return dropped
}

func (f *Func) resolve(dropped *[]*MismatchError) *Func {
	all := append([]*Func{f}, f.others...)
	f.others = nil
	first := all[0]
	for _, g := range all[1:] {
		if shapeBefore(g, first) {
			first = g
		}
	}
	for _, g := range all {
		if g == first {
			continue
		}
		e := mismatch(first, g)
		if e.What == "bitmap bytes" && first.PseudoKind() == 0 {
			// LLVM adds the counters before it finds the bitmaps differ;
			// only the bitmap and value sites are dropped.
			first.Overflowed = addCounts(first.Counts, g.Counts, 1) || first.Overflowed
			e.CountersMerged = true
		}
		*dropped = append(*dropped, e)
	}
	return first
}

// shapeBefore orders the shapes of one name and hash, largest first: by
// counters, real counts before pseudo counts, bitmap bytes, then value
// sites of each kind. Two records of one shape merge, so no two differ.
func shapeBefore(a, b *Func) bool {
	ka, kb := a.shapeKey(), b.shapeKey()
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] > kb[i]
		}
	}
	return false
}

// shapeKey lists what makes f's shape, each larger for a larger shape.
func (f *Func) shapeKey() [3 + NumValueKinds]int {
	k := [3 + NumValueKinds]int{len(f.Counts), 1, len(f.Bitmap)}
	if f.PseudoKind() != 0 {
		k[1] = 0
	}
	for i := range f.Sites {
		k[3+i] = len(f.Sites[i])
	}
	return k
}

// mismatch describes g, dropped for first.
func mismatch(first, g *Func) *MismatchError {
	e := &MismatchError{Name: g.Name, Hash: g.Hash, What: "counters", Got: len(g.Counts), Want: len(first.Counts),
		At: g.Origin, First: first.Origin, Records: g.records}
	switch {
	case len(g.Counts) != len(first.Counts):
	case (g.PseudoKind() == 0) != (first.PseudoKind() == 0):
		e.What = "counters (pseudo and real counts)"
	case len(g.Bitmap) != len(first.Bitmap):
		e.What, e.Got, e.Want = "bitmap bytes", len(g.Bitmap), len(first.Bitmap)
	default:
		e.What, e.Got, e.Want = "value sites", g.numSites(), first.numSites()
	}
	return e
}

func (r *Record) numSites() int {
	n := 0
	for k := range r.Sites {
		n += len(r.Sites[k])
	}
	return n
}

// Filter keeps the records whose name keep accepts and returns how many
// distinct names there were and how many were removed.
func (p *Profile) Filter(keep func(name string) bool) (names, removed int) {
	seen := map[string]bool{}
	for ref, fs := range p.funcs {
		kept := fs[:0]
		for _, f := range fs {
			if !seen[f.Name] {
				seen[f.Name] = true
				if !keep(f.Name) {
					removed++
				}
			}
			if keep(f.Name) {
				kept = append(kept, f)
			}
		}
		p.n -= len(fs) - len(kept)
		if len(kept) == 0 {
			delete(p.funcs, ref)
		} else {
			p.funcs[ref] = kept
		}
	}
	return len(seen), removed
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
	v, _ := satMulAddOver(a, w, b)
	return v
}

// satMulAddOver is satMulAdd that also reports whether it saturated.
func satMulAddOver(a, w, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, w)
	if hi != 0 {
		return ^uint64(0), true
	}
	s, carry := bits.Add64(lo, b, 0)
	if carry != 0 {
		return ^uint64(0), true
	}
	return s, false
}

// clampedMulAdd is a counter's a*w + b clamped at MaxCount, and whether it
// was clamped (LLVM's counter overflow).
func clampedMulAdd(a, w, b uint64) (uint64, bool) {
	v, over := satMulAddOver(a, w, b)
	if v > MaxCount {
		return MaxCount, true
	}
	return v, over
}

// Scale multiplies every count and value count of r by n/d (the product
// saturating, then divided), clamping counts at MaxCount, as LLVM's
// InstrProfRecord::scale does, and reports whether a count overflowed.
func (r *Record) Scale(n, d uint64) bool {
	over := false
	for i, c := range r.Counts {
		v, o := satMulAddOver(c, n, 0)
		v /= d
		if v > MaxCount {
			v, o = MaxCount, true
		}
		r.Counts[i], over = v, over || o
	}
	for k := range r.Sites {
		for _, vs := range r.Sites[k] {
			for i := range vs {
				v, o := satMulAddOver(vs[i].Count, n, 0)
				vs[i].Count, over = v/d, over || o
			}
		}
	}
	return over
}

// scaleRecord multiplies the counts of r by w and reports an overflow.
// Pseudo counts are scaled as counts, as LLVM does.
func scaleRecord(r *Record, w uint64) bool {
	over := false
	for i, c := range r.Counts {
		var o bool
		r.Counts[i], o = clampedMulAdd(c, w, 0)
		over = over || o
	}
	for k := range r.Sites {
		for _, vs := range r.Sites[k] {
			for i := range vs {
				var o bool
				vs[i].Count, o = satMulAddOver(vs[i].Count, w, 0)
				over = over || o
			}
		}
	}
	return over
}

// mergeInto adds src*w to dst and reports a counter overflow.
func mergeInto(dst, src *Record, w uint64) bool {
	over := addCounts(dst.Counts, src.Counts, w)
	for i, b := range src.Bitmap {
		dst.Bitmap[i] |= b
	}
	for k := range src.Sites {
		for s, vs := range src.Sites[k] {
			dst.Sites[k][s] = mergeSite(dst.Sites[k][s], vs, w)
		}
	}
	return over
}

// addCounts adds src*w to dst, clamping at MaxCount, and reports a
// clamp.
func addCounts(dst, src []uint64, w uint64) bool {
	dst = dst[:len(src)]
	over := false
	if w == 1 { // the common case: no multiplication
		for i, c := range src {
			v, carry := bits.Add64(dst[i], c, 0)
			if carry != 0 || v > MaxCount {
				v, over = MaxCount, true
			}
			dst[i] = v
		}
		return over
	}
	for i, c := range src {
		var o bool
		dst[i], o = clampedMulAdd(c, w, dst[i])
		over = over || o
	}
	return over
}

// mergeSite merges src into dst: both sorted by value, matching values add
// count*w, values only in src come in as count*w. (llvm-profdata adds those
// unscaled; with TrackFirstValues, Resolve takes the weight back off, as
// llvm-profdata -j=1 would have it for the inputs' order.)
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
