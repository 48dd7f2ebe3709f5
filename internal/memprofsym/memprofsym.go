// Package memprofsym symbolizes a raw MemProf profile against the binary
// that was profiled, as llvm-profdata's RawMemProfReader does.
//
// In: a raw profile (memprof.Raw) and the profiled ELF binary (its build
// id, executable segment and DWARF, columns included).
// Out: the symbolized profile (memprof.Data): each allocation context's
// program counters become inline frames (function GUID, line offset,
// column); frames the binary's DWARF does not cover, and the memprof
// runtime's own, are dropped; each context's MIB is attached to the
// functions of its leaf's inline chain, and each call on a context to the
// function making it. Also the canonical names of the functions, for
// show --memory.
package memprofsym

import (
	"debug/elf"
	"errors"
	"fmt"
	"path"

	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/instrprof/memprof"
	"github.com/profgen/profgen/internal/sampleprof"
	"github.com/profgen/profgen/internal/symbolize"
)

// Profile is a raw profile symbolized.
type Profile struct {
	Raw  *memprof.Raw
	Data *memprof.Data
	// Names maps each function GUID to its canonical name.
	Names map[uint64]string
	// NumStacks is the number of call stacks left after symbolization
	// (llvm's NumStackOffsets).
	NumStacks int
}

// ErrNoEntries is returned when no call stack keeps a frame.
var ErrNoEntries = errors.New("no entries in callstack map after symbolization")

// Symbolize symbolizes raw against the binary at binPath.
func Symbolize(raw *memprof.Raw, binPath string) (*Profile, error) {
	f, err := binary.Open(binPath, binary.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", binPath, err)
	}
	defer f.Close()
	text, err := textSegment(f, raw)
	if err != nil {
		return nil, err
	}
	d, err := f.DWARF()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", binPath, err)
	}
	t, err := symbolize.New(d, symbolize.Options{PreferredBase: f.PreferredBase(), Section: f.DWARFSection, Columns: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", binPath, err)
	}
	defer t.Close()
	s := &symbolizer{table: t, text: text, raw: raw, data: memprof.NewData(), names: map[uint64]string{},
		frames: map[uint64][]memprof.FrameID{}, dropped: map[uint64]bool{}}
	stacks, err := s.symbolizeStacks()
	if err != nil {
		return nil, err
	}
	if err := s.mapRecords(stacks); err != nil {
		return nil, err
	}
	return &Profile{Raw: raw, Data: s.data, Names: s.names, NumStacks: len(stacks)}, nil
}

// text is where the binary's executable segment was in the process, and
// where the binary places it.
type text struct {
	start, end, preferred uint64
}

// textSegment checks the binary as llvm does (x86, one executable
// segment, a build id) and finds the profile's segment of that build id.
func textSegment(f *binary.File, raw *memprof.Raw) (text, error) {
	ef := f.ELF()
	var t text
	n := 0
	for _, p := range ef.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			if n++; n > 1 {
				return t, fmt.Errorf("%s: Expect only one executable load segment in the binary", f.Path())
			}
			t.preferred = p.Vaddr
		}
	}
	if ef.Machine != elf.EM_X86_64 && ef.Machine != elf.EM_386 {
		return t, fmt.Errorf("%s: Unsupported target: %s", f.Path(), archName(ef.Machine))
	}
	id := f.BuildID()
	if len(id) == 0 {
		return t, fmt.Errorf("No build id found in binary %s", f.Path())
	}
	matched := 0
	for _, s := range raw.Segments {
		if string(s.BuildID) == string(id) {
			if matched++; matched > 1 {
				return t, errors.New("We expect only one executable segment in the profiled binary")
			}
			t.start, t.end = s.Start, s.End
		}
	}
	if matched == 0 {
		return t, fmt.Errorf("No matching executable segments found in binary %s", f.Path())
	}
	return t, nil
}

func archName(m elf.Machine) string {
	switch m {
	case elf.EM_AARCH64:
		return "aarch64"
	case elf.EM_RISCV:
		return "riscv64"
	}
	return m.String()
}

// moduleOffset maps a process address into the binary: addresses of the
// profiled text segment move by the segment's load bias, others stay
// (and fail to symbolize).
func (t text) moduleOffset(addr uint64) uint64 {
	if addr > t.start && addr <= t.end {
		return addr + t.preferred - t.start
	}
	return addr
}

// isRuntimeFile tells the memprof runtime's interceptors apart.
func isRuntimeFile(file string) bool {
	switch path.Base(file) {
	case "memprof_malloc_linux.cpp", "memprof_interceptors.cpp", "memprof_new_delete.cpp":
		return true
	}
	return false
}

// guidOf is the GUID MemProf names a function by: the MD5 of its
// canonical linkage name.
func guidOf(name string) (uint64, string) {
	return memprof.GUIDOf(name), sampleprof.CanonicalName(name)
}
