package binary

import (
	"debug/dwarf"
	"debug/elf"
	"os"
	"strings"

	"github.com/profgen/profgen/internal/mmapfile"
)

// mappedDWARF reads the DWARF of the file from the file mapped into memory
// (mapping it now if Open did not): the sections are slices of the
// mapping, not copies, so that the gigabytes of DWARF of a large binary
// cost address space, not memory, and only the pages read (the
// compilation units symbolize loads) are brought in. It returns nil when a debug section is compressed or needs
// relocating (an object file): debug/elf then reads it.
func (f *File) mappedDWARF() *dwarf.Data {
	secs := debugSections(f.elf)
	if secs == nil {
		return nil
	}
	data := f.image
	if data == nil {
		data = mapPath(f.path)
		if data == nil {
			return nil
		}
		f.addCloser(unmapper(data))
	}
	get := func(name string) []byte {
		s := secs[name]
		if s == nil || s.Offset+s.Size > uint64(len(data)) {
			return nil
		}
		return data[s.Offset : s.Offset+s.Size : s.Offset+s.Size]
	}
	return newDWARF(get)
}

// newDWARF makes the DWARF of the sections get returns by their names
// without ".debug_" (nil for a missing one), or returns nil.
func newDWARF(get func(name string) []byte) *dwarf.Data {
	d, err := dwarf.New(get("abbrev"), get("aranges"), get("frame"), get("info"), get("line"), get("pubnames"), get("ranges"), get("str"))
	if err != nil {
		return nil
	}
	for _, name := range []string{"addr", "line_str", "loclists", "rnglists", "str_offsets"} {
		if b := get(name); b != nil {
			if err := d.AddSection(".debug_"+name, b); err != nil {
				return nil
			}
		}
	}
	if b := get("types"); b != nil {
		if err := d.AddTypes("types", b); err != nil {
			return nil
		}
	}
	return d
}

// debugSections returns the .debug_ sections of ef by name without the
// prefix, or nil when DWARF cannot be read from a mapping: none, or
// compressed, or an object file's (relocations to apply).
func debugSections(ef *elf.File) map[string]*elf.Section {
	if ef.Type == elf.ET_REL {
		return nil
	}
	secs := map[string]*elf.Section{}
	for _, s := range ef.Sections {
		name, ok := strings.CutPrefix(s.Name, ".debug_")
		if !ok {
			if strings.HasPrefix(s.Name, ".zdebug_") {
				return nil
			}
			continue
		}
		if s.Flags&elf.SHF_COMPRESSED != 0 || s.Type == elf.SHT_NOBITS {
			return nil
		}
		secs[name] = s
	}
	if secs["info"] == nil {
		return nil
	}
	return secs
}

// mapPath maps the file at path, or returns nil.
func mapPath(path string) []byte {
	osf, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer osf.Close()
	data, err := mmapfile.Map(osf)
	if err != nil {
		return nil
	}
	return data
}

// unmapper releases a mapping at Close.
type unmapper []byte

func (u unmapper) Close() error { return mmapfile.Unmap(u) }
