package callstack

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNoDSO reports call-chain frames printed without their DSO: perf prints
// call-chain addresses relative to the DSO, so without the DSO they cannot
// be placed.
var ErrNoDSO = errors.New("call-chain frames carry no DSO (perf script prints them DSO-relative); " +
	"add the dso field, e.g. perf script -F pid,time,period,event,ip,sym,dso --show-mmap-events --show-task-events")

// Binary is a profiled binary as the aggregator needs it.
type Binary interface {
	Path() string
	// VaddrOfOffset maps a file offset in an executable segment to the
	// binary's link-time virtual address.
	VaddrOfOffset(off uint64) (uint64, bool)
}

// KernelDSO names the object of kernel frames.
const KernelDSO = "[kernel.kallsyms]"

// Object is a binary or DSO that frames point into.
type Object struct {
	Path   string
	Binary int // index of the profiled binary, or -1 for another DSO
	Kernel bool
}

// Loc is a canonical frame: an object and an address in it (the link-time
// vaddr for profiled binaries, the DSO-relative address otherwise). For a
// caller frame it is the return address - 1, inside the call instruction.
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

// Counts is the aggregated result.
type Counts struct {
	Objects []Object
	Stacks  []*Stack // ordered by their canonical key
	// Symbols holds perf's symbol names for frames outside the binaries.
	Symbols map[Loc]string
	Events  map[string]uint64 // samples per event name
	// Skipped counts samples without any frame in a profiled binary.
	Skipped uint64
	// Unplaced counts frames of a profiled binary (matched by path) whose
	// address is outside its executable segments: a binary that differs
	// from the recorded one, or absolute addresses without MMAP events.
	Unplaced uint64
	// FirstNS and LastNS are the earliest and latest sample timestamps
	// (0 when the script has no time field).
	FirstNS, LastNS uint64
}

// Aggregator turns records into Counts.
type Aggregator struct {
	binaries []Binary
	spaces   *Spaces
	objects  map[string]int32
	stacks   map[string]*Stack
	counts   Counts
	locs     []Loc
	key      []byte
}

// NewAggregator returns an aggregator for the profiled binaries.
func NewAggregator(binaries []Binary) *Aggregator {
	return &Aggregator{
		binaries: binaries,
		spaces:   NewSpaces(),
		objects:  map[string]int32{},
		stacks:   map[string]*Stack{},
		counts:   Counts{Symbols: map[Loc]string{}, Events: map[string]uint64{}},
	}
}

// Add takes one record of the script.
func (a *Aggregator) Add(rec any) error {
	s, ok := rec.(*Sample)
	if !ok {
		a.spaces.Apply(rec)
		return nil
	}
	return a.addSample(s)
}

func (a *Aggregator) addSample(s *Sample) error {
	a.locs = a.locs[:0]
	inBinary := false
	prevUser := false
	for _, f := range s.Frames {
		loc, kernel, ok, err := a.resolve(s.PID, f, prevUser)
		if err != nil {
			return err
		}
		prevUser = ok && !kernel
		if !ok {
			continue
		}
		inBinary = inBinary || a.counts.Objects[loc.Obj].Binary >= 0
		a.locs = append(a.locs, loc)
	}
	if !inBinary {
		a.counts.Skipped++
		return nil
	}
	a.count(s)
	return nil
}

// count adds the sample whose canonical frames are in a.locs.
func (a *Aggregator) count(s *Sample) {
	a.key = a.key[:0]
	for _, l := range a.locs {
		a.key = binary.AppendUvarint(a.key, uint64(l.Obj))
		a.key = binary.AppendUvarint(a.key, l.Addr)
	}
	st := a.stacks[string(a.key)]
	if st == nil {
		st = &Stack{Locs: append([]Loc(nil), a.locs...)}
		a.stacks[string(a.key)] = st
	}
	st.Count++
	st.Period += s.Period
	a.counts.Events[s.Event]++
	a.noteTime(s.TimeNS)
}

func (a *Aggregator) noteTime(ns uint64) {
	if ns == 0 {
		return
	}
	if a.counts.FirstNS == 0 || ns < a.counts.FirstNS {
		a.counts.FirstNS = ns
	}
	a.counts.LastNS = max(a.counts.LastNS, ns)
}

// resolve places one frame. caller is set when the frame is a return
// address (the previous, callee frame is user code).
func (a *Aggregator) resolve(pid int, f Frame, caller bool) (loc Loc, kernel, ok bool, err error) {
	if isKernel(f) {
		return a.foreign(KernelDSO, true, f, f.Addr-back(caller)), true, true, nil
	}
	path, off := f.DSO, f.Addr
	if p, o, found := a.spaces.Lookup(pid, f.Addr); found && (f.Absolute || p == f.DSO) {
		path, off = p, o
	} else if f.Absolute {
		return Loc{}, false, false, nil
	}
	switch path {
	case "":
		return Loc{}, false, false, ErrNoDSO
	case "[unknown]":
		return Loc{}, false, false, nil
	}
	off -= back(caller)
	if bi := a.binaryOf(path); bi >= 0 {
		if v, found := a.binaries[bi].VaddrOfOffset(off); found {
			return Loc{a.object(path, bi, false), v}, false, true, nil
		}
		a.counts.Unplaced++
	}
	return a.foreign(path, false, f, off), false, true, nil
}

func back(caller bool) uint64 {
	if caller {
		return 1
	}
	return 0
}

func isKernel(f Frame) bool {
	return strings.HasPrefix(f.DSO, "[kernel") || (f.DSO == "" && f.Addr >= 0xffff800000000000)
}

// foreign places a frame of the kernel or of a DSO that is not profiled,
// remembering perf's symbol name for it.
func (a *Aggregator) foreign(path string, kernel bool, f Frame, addr uint64) Loc {
	l := Loc{a.object(path, -1, kernel), addr}
	if _, seen := a.counts.Symbols[l]; !seen && f.Symbol != "" && f.Symbol != "[unknown]" {
		a.counts.Symbols[l] = f.Symbol
	}
	return l
}

func (a *Aggregator) object(path string, bi int, kernel bool) int32 {
	if i, ok := a.objects[path]; ok {
		return i
	}
	i := int32(len(a.counts.Objects))
	a.counts.Objects = append(a.counts.Objects, Object{Path: path, Binary: bi, Kernel: kernel})
	a.objects[path] = i
	return i
}

// binaryOf matches a DSO path to a profiled binary: the same path, or else
// the same base name (as llvm-profgen matches MMAP events).
func (a *Aggregator) binaryOf(path string) int {
	for i, b := range a.binaries {
		if b.Path() == path {
			return i
		}
	}
	for i, b := range a.binaries {
		if filepath.Base(b.Path()) == filepath.Base(path) {
			return i
		}
	}
	return -1
}

// Counts returns the aggregated stacks in a deterministic order.
func (a *Aggregator) Counts() *Counts {
	keys := make([]string, 0, len(a.stacks))
	for k := range a.stacks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	c := a.counts
	c.Stacks = make([]*Stack, len(keys))
	for i, k := range keys {
		c.Stacks[i] = a.stacks[k]
	}
	return &c
}
