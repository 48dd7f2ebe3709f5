package binary

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"sync"

	"github.com/profgen/profgen/internal/mmapfile"
)

// Sections is an ELF file mapped into memory and read by section name:
// the file holding a binary's DWARF, and split DWARF's .dwo files and .dwp
// packages. A section is a slice of the mapping (only the pages read are
// brought in), or for a compressed one an inflated copy. Its methods are
// safe for concurrent use.
type Sections struct {
	path string
	data []byte // the mapping
	ef   *elf.File

	mu       sync.Mutex
	inflated map[string][]byte
}

// OpenSections maps the ELF file at path.
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
	ef, err := elf.NewFile(bytes.NewReader(data))
	if err == nil {
		err = CheckCompressed(ef)
	}
	if err != nil {
		mmapfile.Unmap(data)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Sections{path: path, data: data, ef: ef, inflated: map[string][]byte{}}, nil
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
	defer s.mu.Unlock()
	if b, ok := s.inflated[name]; ok {
		return b, nil
	}
	b, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: section %s: %w", s.path, name, err)
	}
	s.inflated[name] = b
	return b, nil
}

// Close unmaps the file.
func (s *Sections) Close() error {
	data := s.data
	s.data = nil
	return mmapfile.Unmap(data)
}
