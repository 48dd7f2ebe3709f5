package binary

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"os"
	"sync"

	"github.com/profgen/profgen/internal/mmapfile"
)

// Sections is an ELF file (or PE image, through its ELF view, whose
// sections lie where the PE's do) mapped into memory and read by section
// name:
// the file holding a binary's DWARF, and split DWARF's .dwo files and .dwp
// packages. A section is a slice of the mapping (only the pages read are
// brought in), or for a compressed one an inflated copy. Its methods are
// safe for concurrent use.
type Sections struct {
	path string
	data []byte // the mapping
	ef   *elf.File

	mu       sync.Mutex
	inflated map[string]*inflation
}

// inflation is a compressed section, inflated once.
type inflation struct {
	once sync.Once
	data []byte
	err  error
}

// OpenSections maps the ELF file, or PE image, at path.
func OpenSections(path string) (*Sections, error) {
	osf, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	data, err := mmapfile.Map(osf)
	osf.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ef, err := openELFOrPE(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		mmapfile.Unmap(data)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Sections{path: path, data: data, ef: ef, inflated: map[string]*inflation{}}, nil
}

// Path is the path the file was opened with.
func (s *Sections) Path() string { return s.path }

// Section returns the contents of the named section, nil when the file has
// none. The slice must not be modified, nor used after Close.
func (s *Sections) Section(name string) ([]byte, error) {
	sec := s.ef.Section(name)
	if sec == nil || sec.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	if sec.Flags&elf.SHF_COMPRESSED == 0 {
		if sec.Offset+sec.Size > uint64(len(s.data)) || sec.Offset+sec.Size < sec.Offset {
			return nil, fmt.Errorf("%s: section %s at offset %#x (%d bytes) extends past the end of the file", s.path, name, sec.Offset, sec.Size)
		}
		return s.data[sec.Offset : sec.Offset+sec.Size : sec.Offset+sec.Size], nil
	}
	s.mu.Lock()
	in := s.inflated[name]
	if in == nil {
		in = new(inflation)
		s.inflated[name] = in
	}
	s.mu.Unlock()
	in.once.Do(func() {
		if in.data, in.err = sec.Data(); in.err != nil {
			in.err = fmt.Errorf("%s: section %s: %w", s.path, name, in.err)
		}
	})
	return in.data, in.err
}

// dwarfSections are the DWARF sections symbolization reads, by the name
// debug/dwarf knows them by. The others (locations, call frames) are not
// read, and so not inflated.
var dwarfSections = []string{"abbrev", "info", "line", "str", "ranges", "addr", "line_str", "rnglists", "str_offsets", "types"}

// DWARF reads the DWARF of the file from its sections: slices of the
// mapping, so that the gigabytes of DWARF of a large binary cost address
// space, not memory, and only the pages read (the compilation units
// symbolize loads) are brought in; compressed ones inflated each on its
// own goroutine, where debug/dwarf would inflate every debug section one
// after another. It returns nil for what it does not read (see
// sectionsHoldDWARF): debug/elf then reads it.
func (s *Sections) DWARF() *dwarf.Data {
	if !sectionsHoldDWARF(s.ef) {
		return nil
	}
	data := make(map[string][]byte, len(dwarfSections))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, name := range dwarfSections {
		wg.Go(func() {
			b, err := s.Section(".debug_" + name)
			if err == nil && b != nil {
				mu.Lock()
				data[name] = b
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return newDWARF(func(name string) []byte { return data[name] })
}

// Close unmaps the file.
func (s *Sections) Close() error {
	data := s.data
	s.data = nil
	return mmapfile.Unmap(data)
}
