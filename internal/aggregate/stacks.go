package aggregate

import (
	"cmp"
	"encoding/binary"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/record"
	"github.com/profgen/profgen/internal/slab"
)

// ErrNoDSO reports call-chain frames printed without their DSO: perf prints
// call-chain addresses relative to the DSO, so without the DSO they cannot
// be placed.
var ErrNoDSO = errors.New("call-chain frames carry no DSO (perf script prints them DSO-relative); " +
	"add the dso field, e.g. perf script -F pid,time,period,event,ip,sym,dso --show-mmap-events --show-task-events")

// StackBinary is a profiled binary as the call-stack aggregation needs it.
// internal/binary's *File implements it.
type StackBinary interface {
	Path() string
	// VaddrOfOffset maps a file offset in an executable segment to the
	// binary's link-time virtual address.
	VaddrOfOffset(off uint64) (uint64, bool)
}

// KernelDSO names the object of kernel frames.
const KernelDSO = "[kernel.kallsyms]"

// UnknownDSO names the object of the call-chain frames perf placed in no
// mapping (perf script's `[unknown]` DSO): JIT code whose mapping was not
// recorded, a page mapped before the recording. Their addresses are
// process addresses.
const UnknownDSO = "[unknown]"

// Object is a binary or DSO that frames point into.
type Object struct {
	Path   string
	Binary int // index of the profiled binary, or -1 for another DSO
	Kernel bool
	// UnknownSite marks the frames that stack repair (package fpskid)
	// inferred without their call site: a frame's address is the entry of
	// the function known to be on the stack, or 0 when even that is
	// unknown. Such a frame is no call instruction.
	UnknownSite bool
	// First is when the object was first met: a recording's objects are
	// numbered in that order, and the merge of address profiles
	// (package addrprof) numbers them again by it.
	First Seen
}

// Seen is when an object was first met: the timestamp of the sample
// whose frame resolved into it (0 without a time field), the number of
// samples read until then, that one included, and the frame's position in
// the sample's call chain, leaf 0.
type Seen struct {
	NS     uint64
	Sample uint64
	Frame  int
}

// Compare orders s and o by time, then sample, then frame.
func (s Seen) Compare(o Seen) int {
	return cmp.Or(cmp.Compare(s.NS, o.NS), cmp.Compare(s.Sample, o.Sample), cmp.Compare(s.Frame, o.Frame))
}

// Loc is a canonical frame: an object and an address in it (the link-time
// vaddr for profiled binaries, the file offset in other DSOs, the address
// for the kernel). For a caller frame it is the return address - 1, inside
// the call instruction.
type Loc struct {
	Obj  int32
	Addr uint64
}

// Stack is one distinct call stack, leaf first, with its weight.
type Stack struct {
	Locs   []Loc
	Count  uint64 // samples
	Period uint64 // summed sample periods
}

// StackCounts is the aggregated result.
type StackCounts struct {
	Objects []Object
	Stacks  []*Stack // ordered by their canonical key
	// Symbols holds perf's symbol names for frames outside the binaries.
	Symbols map[Loc]string
	Events  map[string]uint64 // samples per event name
	// FirstNS and LastNS are the earliest and latest sample timestamps
	// (0 when the script has no time field).
	FirstNS, LastNS uint64
	Stats           StackStats
}

// StackStats says what happened to the call-stack samples.
type StackStats struct {
	Samples    uint64   // samples with a call chain or an IP
	Used       uint64   // samples with a frame in a profiled binary
	NoBinary   uint64   // every frame outside the profiled binaries
	NoMapping  uint64   // the IP is a process address in no known mapping
	Filtered   uint64   // processes not selected by --pid
	PerBinary  []uint64 // used samples whose leaf is in binary i
	Unplaced   uint64   // frames of a profiled binary outside its executable segments
	LeafInBins uint64   // used samples whose leaf is in a profiled binary
	// NotFound counts the samples with no frame in a profiled binary but
	// one in a binary not found (MarkNotFound), and NotFoundLeaves, by
	// binary not found, the samples whose leaf is in it.
	NotFound       uint64
	NotFoundLeaves []uint64
}

// Stacks aggregates call stacks.
type Stacks struct {
	binaries []StackBinary
	table    *addrspace.Table
	objects  map[string]int32
	stacks   map[string]*Stack
	counts   StackCounts
	locs     []Loc
	key      []byte
	seen     Seen // the sample and frame being resolved
	// namer names the frames outside the binaries that come unnamed, from
	// the sources of each location's name (names.go).
	namer       Namer
	nameSources map[Loc][]nameSource
	prefetched  map[int32]bool // objects whose symbols Prefetch was asked for
	recent      recentDSOs
	// stackSlab and locSlab hold the stacks made and their frames: a
	// recording of tens of thousands of distinct stacks is then a few
	// hundred allocations, not two per stack.
	stackSlab slab.Slab[Stack]
	locSlab   slab.Slab[Loc]
	// watch, when set, is handed the stacks first seen (fresh) in
	// batches of watchBatch.
	watch      func(stacks []*Stack, objects []Object)
	watchBatch int
	fresh      []*Stack
	notFound   map[string]int // MarkNotFound's paths, by index
	earliest   bool           // KeepEarliest
}

// NewStacks returns an aggregator for the profiled binaries; table places
// addresses perf printed as process addresses.
func NewStacks(binaries []StackBinary, table *addrspace.Table) *Stacks {
	return &Stacks{
		binaries: binaries,
		table:    table,
		objects:  map[string]int32{},
		stacks:   map[string]*Stack{},
		locSlab:  slab.Slab[Loc]{Chunk: 1 << 15},
		counts: StackCounts{Symbols: map[Loc]string{}, Events: map[string]uint64{},
			Stats: StackStats{PerBinary: make([]uint64, len(binaries))}},
	}
}

// Add counts one sample record.
func (a *Stacks) Add(rec *record.Record) error {
	smp := &rec.Sample
	st := &a.counts.Stats
	st.Samples += smp.Count
	if rec.HasPID && !a.table.Selected(rec.PID) {
		st.Filtered += smp.Count
		return nil
	}
	if err := a.resolveSample(rec); err != nil {
		return err
	}
	if len(a.locs) == 0 {
		st.NoMapping += smp.Count
		return nil
	}
	missing := len(a.notFound) > 0 && a.countNotFound(smp.Count)
	if !a.anyInBinary() {
		if missing {
			st.NotFound += smp.Count
		} else {
			st.NoBinary += smp.Count
		}
		return nil
	}
	a.count(smp)
	a.prefetchNames()
	return nil
}

// resolveSample fills a.locs with the sample's canonical frames.
func (a *Stacks) resolveSample(rec *record.Record) error {
	a.locs = a.locs[:0]
	smp := &rec.Sample
	a.seen = Seen{NS: smp.TimeNS, Sample: a.counts.Stats.Samples}
	if len(smp.Frames) == 0 {
		f := record.Frame{Addr: smp.IP, Symbol: smp.IPSymbol, DSO: smp.IPDSO}
		if loc, ok := a.resolveAbsolute(rec, f, false); ok {
			a.locs = append(a.locs, loc)
		}
		return nil
	}
	prevUser := false
	for i, f := range smp.Frames {
		a.seen.Frame = i
		loc, kernel, ok, err := a.resolve(rec, f, prevUser)
		if err != nil {
			return err
		}
		prevUser = ok && !kernel
		if ok {
			a.locs = append(a.locs, loc)
		}
	}
	return nil
}

func (a *Stacks) anyInBinary() bool {
	for _, l := range a.locs {
		if a.counts.Objects[l.Obj].Binary >= 0 {
			return true
		}
	}
	return false
}

// MarkNotFound names the DSOs that are binaries of the recording not
// found: a sample with frames in them but in no profiled binary is
// counted as NotFound, not NoBinary.
func (a *Stacks) MarkNotFound(paths []string) {
	a.notFound = make(map[string]int, len(paths))
	for i, p := range paths {
		a.notFound[p] = i
	}
	a.counts.Stats.NotFoundLeaves = make([]uint64, len(paths))
}

// countNotFound counts the sample in a.locs against the binary not found
// holding its leaf, and reports whether a frame is in one.
func (a *Stacks) countNotFound(n uint64) bool {
	found := false
	for i, l := range a.locs {
		bi, ok := a.notFound[a.counts.Objects[l.Obj].Path]
		if ok && i == 0 {
			a.counts.Stats.NotFoundLeaves[bi] += n
		}
		found = found || ok
	}
	return found
}

// count adds the sample whose canonical frames are in a.locs.
func (a *Stacks) count(s *record.Sample) {
	a.key = AppendKey(a.key[:0], a.locs)
	st := a.stacks[string(a.key)]
	if st == nil {
		st = a.stackSlab.New()
		st.Locs = a.locSlab.Copy(a.locs)
		a.stacks[string(a.key)] = st
		a.noteFresh(st)
	}
	st.Count += s.Count
	st.Period += s.Period * s.Count
	a.counts.Events[s.Event] += s.Count
	a.counts.Stats.Used += s.Count
	if bi := a.counts.Objects[a.locs[0].Obj].Binary; bi >= 0 {
		a.counts.Stats.PerBinary[bi] += s.Count
		a.counts.Stats.LeafInBins += s.Count
	}
	a.noteTime(s.TimeNS)
}

// AppendKey appends the canonical key of a stack's frames to dst: stacks
// of the same frames have the same key, and Counts orders stacks by it.
func AppendKey(dst []byte, locs []Loc) []byte {
	for _, l := range locs {
		dst = binary.AppendUvarint(dst, uint64(l.Obj))
		dst = binary.AppendUvarint(dst, l.Addr)
	}
	return dst
}

func (a *Stacks) noteTime(ns uint64) {
	if ns == 0 {
		return
	}
	if a.counts.FirstNS == 0 || ns < a.counts.FirstNS {
		a.counts.FirstNS = ns
	}
	a.counts.LastNS = max(a.counts.LastNS, ns)
}

// resolve places one call-chain frame. caller is set when the frame is a
// return address (the previous, callee frame is user code). Whether the
// address is DSO-relative is what perf printed (Frame.Relative), never a
// guess from the number.
func (a *Stacks) resolve(rec *record.Record, f record.Frame, caller bool) (loc Loc, kernel, ok bool, err error) {
	switch {
	case isKernel(f):
		return a.foreign(KernelDSO, true, f, f.Addr-back(caller)), true, true, nil
	case f.Relative:
		return a.place(f.DSO, f.Addr-back(caller), f), false, true, nil
	case f.DSO == "":
		return Loc{}, false, false, ErrNoDSO
	}
	loc, ok = a.resolveAbsolute(rec, f, caller)
	if !ok && f.DSO == UnknownDSO {
		// Kept by its address, as perf report keeps it: dropped, its
		// time would become its caller's self time. (The end of a chain
		// perf could not follow can be address 0.)
		return a.foreign(UnknownDSO, false, f, f.Addr-min(f.Addr, back(caller))), false, true, nil
	}
	return loc, false, ok, nil
}

// resolveAbsolute places a process address through the process's mappings.
func (a *Stacks) resolveAbsolute(rec *record.Record, f record.Frame, caller bool) (Loc, bool) {
	if isKernel(f) {
		return a.foreign(KernelDSO, true, f, f.Addr), true
	}
	if !rec.HasPID {
		return Loc{}, false
	}
	m, found := a.table.Lookup(rec.PID, f.Addr)
	if !found {
		return Loc{}, false
	}
	return a.place(m.Path, m.FileOffset(f.Addr)-back(caller), f), true
}

// place returns the location of file offset off in the DSO at path.
func (a *Stacks) place(path string, off uint64, f record.Frame) Loc {
	d := a.dso(path)
	if d.binary >= 0 {
		if v, found := a.binaries[d.binary].VaddrOfOffset(off); found {
			return Loc{a.objectOf(d, d.binary, false), v}
		}
		a.counts.Stats.Unplaced++
	}
	return a.foreignIn(d, false, f, off)
}

func back(caller bool) uint64 {
	if caller {
		return 1
	}
	return 0
}

func isKernel(f record.Frame) bool {
	return record.IsKernelDSO(f.DSO) || (f.DSO == "" && f.Addr >= 0xffff800000000000)
}

// foreign places a frame of the kernel or of a DSO that is not profiled,
// remembering perf's symbol name for it.
func (a *Stacks) foreign(path string, kernel bool, f record.Frame, addr uint64) Loc {
	return a.foreignIn(a.dso(path), kernel, f, addr)
}

func (a *Stacks) foreignIn(d *recentDSO, kernel bool, f record.Frame, addr uint64) Loc {
	l := Loc{a.objectOf(d, -1, kernel), addr}
	a.noteName(l, kernel, f)
	return l
}

// trimOffset drops perf's "+0x12" after a symbol name.
func trimOffset(sym string) string {
	for i := len(sym) - 1; i > 0; i-- {
		if sym[i] == '+' {
			if len(sym) > i+2 && sym[i+1] == '0' && sym[i+2] == 'x' {
				return sym[:i]
			}
			break
		}
	}
	return sym
}

// object returns the index of the object at path, made with bi and kernel
// when it is new.
func (a *Stacks) object(path string, bi int, kernel bool) int32 {
	if i, ok := a.objects[path]; ok {
		return i
	}
	i := int32(len(a.counts.Objects))
	a.counts.Objects = append(a.counts.Objects, Object{Path: path, Binary: bi, Kernel: kernel, First: a.seen})
	a.objects[path] = i
	return i
}

// binaryOf matches a DSO path to a profiled binary (BinaryNamed).
func (a *Stacks) binaryOf(path string) int { return BinaryNamed(a.binaries, path) }

// BinaryNamed matches a DSO path to one of binaries: the same path, or
// else the same base name (as llvm-profgen matches MMAP events); -1 for
// none.
func BinaryNamed(binaries []StackBinary, path string) int {
	for i, b := range binaries {
		if b.Path() == path {
			return i
		}
	}
	for i, b := range binaries {
		if filepath.Base(b.Path()) == filepath.Base(path) {
			return i
		}
	}
	return -1
}

// WatchNewStacks has f called with the stacks first seen, n at a time
// (the last ones at Counts), and the objects known then. A stack's frames
// and the objects handed never change (objects are appended to, not
// written), so f may pass them to another goroutine; the other fields of
// a stack do change.
func (a *Stacks) WatchNewStacks(n int, f func(stacks []*Stack, objects []Object)) {
	a.watch, a.watchBatch = f, n
}

// noteFresh hands st, just made, to the watcher when its batch is full.
func (a *Stacks) noteFresh(st *Stack) {
	if a.watch == nil {
		return
	}
	if a.fresh = append(a.fresh, st); len(a.fresh) >= a.watchBatch {
		a.handFresh()
	}
}

// handFresh hands the fresh stacks to the watcher.
func (a *Stacks) handFresh() {
	if a.watch != nil && len(a.fresh) > 0 {
		a.watch(a.fresh, a.counts.Objects[:len(a.counts.Objects):len(a.counts.Objects)])
		a.fresh = nil
	}
}

// Counts returns the aggregated stacks in a deterministic order.
func (a *Stacks) Counts() *StackCounts {
	a.handFresh()
	c := a.counts
	c.Stacks = sortedStacks(a.stacks)
	a.nameKept(c.Stacks)
	return &c
}

// sortedStacks returns the stacks of a map by canonical key in key order.
// The keys are compared by their first eight bytes first, held next to
// them: most comparisons then read no key's bytes.
func sortedStacks(m map[string]*Stack) []*Stack {
	type keyed struct {
		prefix uint64
		key    string
		st     *Stack
	}
	ks := make([]keyed, 0, len(m))
	for k, st := range m {
		ks = append(ks, keyed{keyPrefix(k), k, st})
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := cmp.Compare(a.prefix, b.prefix); c != 0 {
			return c
		}
		return strings.Compare(a.key, b.key)
	})
	out := make([]*Stack, len(ks))
	for i, k := range ks {
		out[i] = k.st
	}
	return out
}

// keyPrefix is the first eight bytes of key as a big-endian number, zeros
// past its end: two keys whose prefixes differ are in the order of their
// prefixes.
func keyPrefix(key string) uint64 {
	var b [8]byte
	copy(b[:], key)
	return binary.BigEndian.Uint64(b[:])
}

// SortStacks returns distinct stacks in the canonical order, Counts's:
// by the key of their frames.
func SortStacks(stacks []*Stack) []*Stack {
	m := make(map[string]*Stack, len(stacks))
	for _, s := range stacks {
		m[string(AppendKey(nil, s.Locs))] = s
	}
	return sortedStacks(m)
}
