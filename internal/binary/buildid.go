package binary

import (
	"cmp"
	"debug/elf"
	"encoding/binary"
	"fmt"
)

// ntGNUBuildID is the type of the GNU build id note.
const ntGNUBuildID = 3

// BuildIDOf returns the GNU build id of ef (the NT_GNU_BUILD_ID note):
// from its SHT_NOTE sections, then from its PT_NOTE segments (a file
// without section headers). nil without an error when ef has none; the
// error of the first note section that could not be read when ef has
// none in the others.
func BuildIDOf(ef *elf.File) ([]byte, error) {
	var firstErr error
	for _, s := range ef.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := s.Data()
		if err != nil {
			firstErr = cmp.Or(firstErr, fmt.Errorf("%s: %w", s.Name, err))
			continue
		}
		if id := BuildIDNote(data, ef.ByteOrder); id != nil {
			return id, nil
		}
	}
	for _, p := range ef.Progs {
		if p.Type != elf.PT_NOTE || p.Filesz > 1<<20 {
			continue
		}
		data := make([]byte, p.Filesz)
		if _, err := p.ReadAt(data, 0); err == nil {
			if id := BuildIDNote(data, ef.ByteOrder); id != nil {
				return id, nil
			}
		}
	}
	return nil, firstErr
}

// BuildIDNote returns a copy of the descriptor of the first GNU build id
// note in notes, the contents of a note section or segment (or of
// /sys/kernel/notes): each note is namesz, descsz and type (4 bytes each,
// in order bo), the name, then the descriptor, both padded to 4 bytes. nil
// when there is none, or when a note runs past the end before it.
func BuildIDNote(notes []byte, bo binary.ByteOrder) []byte {
	return noteDesc(notes, bo, "GNU\x00", ntGNUBuildID)
}

// noteDesc returns a copy of the non-empty descriptor of the first note of
// name (with its NUL padding) and type typ in notes, or nil.
func noteDesc(notes []byte, bo binary.ByteOrder, name string, typ uint32) []byte {
	for len(notes) >= 12 {
		namesz, descsz, t := uint64(bo.Uint32(notes)), uint64(bo.Uint32(notes[4:])), bo.Uint32(notes[8:])
		notes = notes[12:]
		descStart := align4(namesz)
		if descStart > uint64(len(notes)) || descsz > uint64(len(notes))-descStart {
			return nil
		}
		if t == typ && namesz == uint64(len(name)) && string(notes[:namesz]) == name && descsz > 0 {
			return append([]byte(nil), notes[descStart:descStart+descsz]...)
		}
		notes = notes[min(descStart+align4(descsz), uint64(len(notes))):]
	}
	return nil
}

// ntGoBuildID is the type of the note Go's linker writes its build id in
// (section .note.go.buildid, name "Go").
const ntGoBuildID = 4

// GoBuildID returns the Go build id of a Go binary (the text `go tool
// buildid` prints), "" when it has none.
func (f *File) GoBuildID() string {
	s := f.elf.Section(".note.go.buildid")
	if s == nil || s.Size > 1<<12 {
		return ""
	}
	data, err := s.Data()
	if err != nil {
		return ""
	}
	return string(noteDesc(data, f.elf.ByteOrder, "Go\x00\x00", ntGoBuildID))
}

func align4(n uint64) uint64 { return (n + 3) &^ 3 }
