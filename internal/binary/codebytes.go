package binary

import (
	"debug/elf"
	"fmt"
)

// ReadCode fills b with the bytes at virtual address addr of an
// executable section (what an instruction's operands need, e.g. a call's
// displacement). It fails when [addr, addr+len(b)) is not inside one
// such section.
func (f *File) ReadCode(addr uint64, b []byte) error {
	n := uint64(len(b))
	s := f.codeSection(addr, n)
	if s == nil {
		return fmt.Errorf("%s: %#x+%d is not inside one executable section", f.path, addr, n)
	}
	if _, err := s.ReadAt(b, int64(addr-s.Addr)); err != nil {
		return fmt.Errorf("%s: reading %d bytes of code at %#x: %w", f.path, n, addr, err)
	}
	return nil
}

// HoldsCode reports whether [addr, addr+n) is inside one executable
// section: whether ReadCode can read it.
func (f *File) HoldsCode(addr, n uint64) bool { return f.codeSection(addr, n) != nil }

// codeSection returns the executable section holding [addr, addr+n), or
// nil.
func (f *File) codeSection(addr, n uint64) *elf.Section {
	for _, s := range f.elf.Sections {
		if !textSection(s) || addr < s.Addr || addr-s.Addr >= s.Size {
			continue
		}
		if s.Size-(addr-s.Addr) < n {
			return nil
		}
		return s
	}
	return nil
}
