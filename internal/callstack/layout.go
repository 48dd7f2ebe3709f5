package callstack

import "debug/elf"

// ELFBinary is a Binary read from an ELF file's program headers.
type ELFBinary struct {
	path  string
	loads []elf.ProgHeader // executable PT_LOAD segments
}

// NewELFBinary reads the executable segments of f, opened from path.
func NewELFBinary(path string, f *elf.File) *ELFBinary {
	b := &ELFBinary{path: path}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			b.loads = append(b.loads, p.ProgHeader)
		}
	}
	return b
}

// Path returns the binary's path.
func (b *ELFBinary) Path() string { return b.path }

// VaddrOfOffset maps a file offset inside an executable segment to its
// link-time virtual address.
func (b *ELFBinary) VaddrOfOffset(off uint64) (uint64, bool) {
	for _, p := range b.loads {
		if off >= p.Off && off < p.Off+p.Filesz {
			return off - p.Off + p.Vaddr, true
		}
	}
	return 0, false
}
