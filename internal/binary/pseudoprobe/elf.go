package pseudoprobe

import (
	"debug/elf"
	"fmt"
)

// In tells whether ef carries pseudo probes: both sections, as
// llvm-profgen requires to generate a probe-based profile.
func In(ef *elf.File) bool {
	return ef.Section(DescSection) != nil && ef.Section(ProbeSection) != nil
}

// Sections returns the bytes of the two probe sections of ef.
func Sections(ef *elf.File) (desc, probes []byte, err error) {
	if desc, err = sectionData(ef, DescSection); err != nil {
		return nil, nil, err
	}
	if probes, err = sectionData(ef, ProbeSection); err != nil {
		return nil, nil, err
	}
	return desc, probes, nil
}

func sectionData(ef *elf.File, name string) ([]byte, error) {
	s := ef.Section(name)
	if s == nil {
		return nil, fmt.Errorf("no %s section", name)
	}
	if s.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	b, err := s.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}
