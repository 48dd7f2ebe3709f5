// Package addrspace is the per-process table of a perf recording: for each
// process, its executable mappings of every DSO, and where the profiled
// binary is loaded.
//
// In: perfscript Records, in input order (MMAP/MMAP2 add a mapping and
// replace what it overlaps, FORK copies the parent's mappings, EXIT and
// COMM exec drop them; a sample asks). Out: Lookup(pid, addr), the mapping
// holding a process address and its file offset; and, for each profiled
// binary of LBR input (one, or several placed side by side), the delta
// that turns a runtime address into that binary's canonical address (ASLR
// removed), or the reason the sample cannot be placed.
package addrspace

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/profgen/profgen/internal/record"
)

// Binary is what the table needs to know about the profiled binary.
type Binary struct {
	Path string
	// PreferredBase is the vaddr of the first executable PT_LOAD and
	// TextOffset its file offset, both rounded down to the page as
	// llvm-profgen 19 does.
	PreferredBase uint64
	TextOffset    uint64
	// Kernel says the binary is the Linux kernel (llvm-profgen --kernel):
	// it is the DSO perf names [kernel.kallsyms] (_text, _stext), loaded
	// where its mmap says, for every process.
	Kernel bool
	// COFF says the binary is a PE image: its mmaps name it by a Windows
	// path (c:\dir\app.exe), matched by the name after the last \ or /.
	COFF bool
}

// IsKernelImage reports whether a DSO name is the kernel image's, as
// llvm-profgen 19 matches it.
func IsKernelImage(path string) bool {
	switch filepath.Base(path) {
	case "[kernel.kallsyms]", "[kernel.kallsyms]_stext", "[kernel.kallsyms]_text":
		return true
	}
	return false
}

// RuntimeBase returns where the binary's text segment was loaded, given an
// mmap of the binary, and false when the mapping does not hold the text
// segment. For the mapping of the text segment itself (page offset equal to
// the text segment's file offset, the only case llvm-profgen 19 accepts) it
// is the mapping's address; a mapping that starts earlier in the file and
// covers the text segment gives the address the text segment lands at.
func RuntimeBase(bin Binary, m record.Mmap) (uint64, bool) {
	if m.Prot != "" && !strings.Contains(m.Prot, "x") {
		return 0, false
	}
	if m.PgOff == bin.TextOffset || bin.Kernel {
		return m.Addr, true
	}
	if m.PgOff < bin.TextOffset && bin.TextOffset-m.PgOff < m.Len {
		return m.Addr + (bin.TextOffset - m.PgOff), true
	}
	return 0, false
}

// Canonical maps a runtime address to the binary's address space given the
// runtime base, with unsigned wrap-around as llvm-profgen's
// canonicalizeVirtualAddress.
func Canonical(bin Binary, base, addr uint64) uint64 {
	return addr - base + bin.PreferredBase
}

// Reason says why a sample could not be placed.
type Reason uint8

const (
	OK          Reason = iota
	NoMapping          // its process has no known mapping of the binary
	FilteredPID        // its process is not among those asked for
)

// Table is the per-process address-space table.
type Table struct {
	procs map[int32][]Mapping // executable mappings, sorted by Start, disjoint
	pids  map[int32]bool      // nil: every process
	// places are where each profiled binary is loaded, the primary one
	// first (LBR input of several binaries places each sample in each).
	places []placement
}

// placement is where one profiled binary is loaded in each process.
type placement struct {
	bin      Binary
	name     string
	bases    map[int32]uint64
	last     uint64 // the last accepted mapping, for samples without a PID
	haveLast bool
	lastPID  int32
	stats    Stats
}

// Stats counts what the table saw of one binary.
type Stats struct {
	Mappings        int    // mmaps of the binary accepted
	Reloads         int    // a mapping replaced the PID-less default at a different base
	NoPIDSamples    uint64 // samples without a PID (placed with the last mapping)
	NoMmapDefaulted bool
}

// New returns an empty table for bin; pids, if not empty, keeps only those
// processes.
func New(bin Binary, pids []int32) *Table {
	return NewOf([]Binary{bin}, pids)
}

// NewOf returns an empty table that places samples in each of bins (at
// least one; the first is the primary binary of Delta and Stats).
func NewOf(bins []Binary, pids []int32) *Table {
	t := &Table{procs: map[int32][]Mapping{}}
	for _, b := range bins {
		t.places = append(t.places, placement{bin: b, name: filepath.Base(b.Path), bases: map[int32]uint64{}})
	}
	if len(pids) > 0 {
		t.pids = map[int32]bool{}
		for _, p := range pids {
			t.pids[p] = true
		}
	}
	return t
}

// Stats is what the table saw of the primary binary.
func (t *Table) Stats() Stats { return t.places[0].stats }

// StatsOf is what the table saw of binary i (in NewOf's order).
func (t *Table) StatsOf(i int) Stats { return t.places[i].stats }

// ResetStats zeroes the counts of every binary (a clone's, counted apart).
func (t *Table) ResetStats() {
	for i := range t.places {
		t.places[i].stats = Stats{}
	}
}

// Update applies an event record; samples are ignored.
func (t *Table) Update(r *record.Record) {
	switch r.Kind {
	case record.KindMmap:
		t.addMapping(r.PID, r.Mmap)
		for i := range t.places {
			t.places[i].mmap(r.PID, r.Mmap, t.pids)
		}
	case record.KindFork:
		t.fork(r.ParentPID, r.PID)
	case record.KindExit:
		if r.PID == r.TID { // a thread's exit leaves the process mapped
			t.drop(r.PID)
		}
	case record.KindComm:
		if r.Exec { // a new program image: the old mappings are gone
			t.drop(r.PID)
		}
	}
}

func (t *Table) drop(pid int32) {
	for i := range t.places {
		delete(t.places[i].bases, pid)
	}
	delete(t.procs, pid)
}

// Selected reports whether samples of pid are wanted (--pid).
func (t *Table) Selected(pid int32) bool { return t.pids == nil || t.pids[pid] }

func (p *placement) isBinary(path string) bool {
	if p.bin.Kernel {
		return IsKernelImage(path)
	}
	return path == p.bin.Path || baseName(path, p.bin.COFF) == p.name
}

// baseName is the file name of a mapped path; of a PE image's, as
// llvm-profgen reads it: after the last \ or /, without a trailing \r
// (a script with CRLF line ends).
func baseName(path string, coff bool) string {
	if !coff {
		return filepath.Base(path)
	}
	path = strings.TrimSuffix(path, "\r")
	return path[strings.LastIndexAny(path, `\/`)+1:]
}

// mmap notes where m loads the binary, if it maps its text segment; pids
// are the processes asked for (nil: all).
func (p *placement) mmap(pid int32, m record.Mmap, pids map[int32]bool) {
	if !p.isBinary(m.Path) {
		return
	}
	base, ok := RuntimeBase(p.bin, m)
	if !ok {
		return
	}
	p.stats.Mappings++
	p.bases[pid] = base
	if pids != nil && !pids[pid] {
		return // PID-less samples only use mappings of the processes asked for
	}
	if p.haveLast && p.last != base && p.lastPID != pid {
		p.stats.Reloads++
	}
	p.last, p.haveLast, p.lastPID = base, true, pid
}

func (t *Table) fork(parent, child int32) {
	if parent == child {
		return // a new thread shares its process's mappings
	}
	t.procs[child] = append([]Mapping(nil), t.procs[parent]...)
	for i := range t.places {
		p := &t.places[i]
		if base, ok := p.bases[parent]; ok {
			p.bases[child] = base
		} else {
			delete(p.bases, child)
		}
	}
}

// Delta returns what to add to a runtime address of the sample's process to
// get the primary binary's canonical address. A sample without a PID uses
// the last mapping seen, or the preferred base when none was (as
// llvm-profgen 19).
func (t *Table) Delta(hasPID bool, pid int32) (uint64, Reason) {
	return t.DeltaOf(0, hasPID, pid)
}

// DeltaOf is Delta for binary i (in NewOf's order).
func (t *Table) DeltaOf(i int, hasPID bool, pid int32) (uint64, Reason) {
	p := &t.places[i]
	if !hasPID || p.bin.Kernel {
		p.stats.NoPIDSamples++
		if !p.haveLast {
			p.stats.NoMmapDefaulted = true
			return 0, OK
		}
		return p.bin.PreferredBase - p.last, OK
	}
	if t.pids != nil && !t.pids[pid] {
		return 0, FilteredPID
	}
	base, ok := p.bases[pid]
	if !ok {
		return 0, NoMapping
	}
	return p.bin.PreferredBase - base, OK
}

// Canonical maps a runtime address of process pid to the binary's address
// space.
func (t *Table) Canonical(hasPID bool, pid int32, addr uint64) (uint64, Reason) {
	d, why := t.Delta(hasPID, pid)
	return addr + d, why
}

// Mapping is one executable mapping of a process: [Start, End) maps Path
// from file offset PgOff.
type Mapping struct {
	Start, End, PgOff uint64
	Path              string
}

// FileOffset returns the file offset of addr, an address inside m.
func (m Mapping) FileOffset(addr uint64) uint64 { return addr - m.Start + m.PgOff }

// addMapping records an executable mapping, replacing the parts of older
// ones it overlaps (the kernel's mmap semantics).
func (t *Table) addMapping(pid int32, mm record.Mmap) {
	if mm.Len == 0 || (mm.Prot != "" && !strings.Contains(mm.Prot, "x")) {
		return
	}
	m := Mapping{mm.Addr, mm.Addr + mm.Len, mm.PgOff, mm.Path}
	var out []Mapping
	for _, o := range t.procs[pid] {
		out = appendOutside(out, o, m)
	}
	out = append(out, m)
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	t.procs[pid] = out
}

// appendOutside appends the parts of o that m does not cover.
func appendOutside(out []Mapping, o, m Mapping) []Mapping {
	if o.End <= m.Start || o.Start >= m.End {
		return append(out, o)
	}
	if o.Start < m.Start {
		out = append(out, Mapping{o.Start, m.Start, o.PgOff, o.Path})
	}
	if o.End > m.End {
		out = append(out, Mapping{m.End, o.End, o.PgOff + (m.End - o.Start), o.Path})
	}
	return out
}

// Lookup returns the executable mapping of process pid that holds addr.
func (t *Table) Lookup(pid int32, addr uint64) (Mapping, bool) {
	ms := t.procs[pid]
	i := sort.Search(len(ms), func(i int) bool { return ms[i].End > addr })
	if i == len(ms) || ms[i].Start > addr {
		return Mapping{}, false
	}
	return ms[i], true
}
