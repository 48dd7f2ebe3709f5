package merge

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
)

// BuildID returns the GNU build id of an ELF binary.
func BuildID(path string) ([]byte, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, s.Name, err)
		}
		if id := findBuildID(data, f.ByteOrder); id != nil {
			return id, nil
		}
	}
	return nil, fmt.Errorf("%s: no GNU build id note (link with -Wl,--build-id)", path)
}

func findBuildID(notes []byte, bo binary.ByteOrder) []byte {
	for len(notes) >= 12 {
		nameSize, descSize, typ := bo.Uint32(notes), bo.Uint32(notes[4:]), bo.Uint32(notes[8:])
		nameEnd := 12 + int(nameSize+3)&^3
		descEnd := nameEnd + int(descSize+3)&^3
		if nameEnd > len(notes) || nameEnd+int(descSize) > len(notes) {
			return nil
		}
		if typ == 3 && nameSize == 4 && string(notes[12:15]) == "GNU" {
			return append([]byte(nil), notes[nameEnd:nameEnd+int(descSize)]...)
		}
		if descEnd > len(notes) {
			return nil
		}
		notes = notes[descEnd:]
	}
	return nil
}
