package binary

import (
	"debug/dwarf"
	"debug/elf"
	"strings"

	"github.com/profgen/profgen/internal/mmapfile"
)

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

// sectionsHoldDWARF reports whether the DWARF of ef can be read from its
// sections as they are in the file (compressed ones inflated): it has
// .debug_info, no old-style .zdebug_ section, no debug section without
// contents, and is not an object file (whose relocations debug/elf
// applies).
func sectionsHoldDWARF(ef *elf.File) bool {
	if ef.Type == elf.ET_REL {
		return false
	}
	info := false
	for _, s := range ef.Sections {
		name, ok := strings.CutPrefix(s.Name, ".debug_")
		switch {
		case strings.HasPrefix(s.Name, ".zdebug_"), ok && s.Type == elf.SHT_NOBITS:
			return false
		case name == "info":
			info = true
		}
	}
	return info
}

// unmapper releases a mapping at Close.
type unmapper []byte

func (u unmapper) Close() error { return mmapfile.Unmap(u) }
