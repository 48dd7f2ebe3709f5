package binary

import (
	"debug/elf"
	"fmt"
	"slices"
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
	code, err := f.code.sectionBytes(s, addr-s.Addr, n, &b)
	if err != nil {
		return fmt.Errorf("%s: reading %d bytes of code at %#x: %w", f.path, n, addr, err)
	}
	copy(b, code) // a no-op when it was read into b
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

// sectionBytes returns n bytes of sec from offset off: a slice of the
// mapped file when there is one (no copy, no read system call), else read
// into *buf, grown as needed. The bytes are read-only.
func (c *codeIndex) sectionBytes(sec *elf.Section, off, n uint64, buf *[]byte) ([]byte, error) {
	if at := sec.Offset + off; c.image != nil && off+n <= sec.Size && at+n <= uint64(len(c.image)) {
		return c.image[at : at+n : at+n], nil
	}
	*buf = slices.Grow((*buf)[:0], int(n))[:n]
	if _, err := sec.ReadAt(*buf, int64(off)); err != nil {
		return nil, err
	}
	return *buf, nil
}
