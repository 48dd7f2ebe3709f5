package binary

import (
	"debug/dwarf"
	"debug/elf"
	"os"
	"strings"

	"github.com/profgen/profgen/internal/mmapfile"
)

// mappedDWARF reads the DWARF of the ELF file at path from the file mapped
// into memory: the sections are slices of the mapping, not copies, so that
// the gigabytes of DWARF of a large binary cost address space, not memory,
// and only the pages read (the compilation units symbolize loads) are
// brought in. It returns nil when a debug section is compressed or needs
// relocating (an object file): debug/elf then reads it.
func mappedDWARF(ef *elf.File, path string) (*dwarf.Data, []byte) {
	if ef.Type == elf.ET_REL {
		return nil, nil
	}
	secs := map[string]*elf.Section{}
	for _, s := range ef.Sections {
		name, ok := strings.CutPrefix(s.Name, ".debug_")
		if !ok {
			if strings.HasPrefix(s.Name, ".zdebug_") {
				return nil, nil
			}
			continue
		}
		if s.Flags&elf.SHF_COMPRESSED != 0 || s.Type == elf.SHT_NOBITS {
			return nil, nil
		}
		secs[name] = s
	}
	if secs["info"] == nil {
		return nil, nil
	}
	osf, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	data, err := mmapfile.Map(osf)
	osf.Close()
	if err != nil {
		return nil, nil
	}
	get := func(name string) []byte {
		s := secs[name]
		if s == nil || s.Offset+s.Size > uint64(len(data)) {
			return nil
		}
		return data[s.Offset : s.Offset+s.Size : s.Offset+s.Size]
	}
	d, err := dwarf.New(get("abbrev"), get("aranges"), get("frame"), get("info"), get("line"), get("pubnames"), get("ranges"), get("str"))
	if err != nil {
		mmapfile.Unmap(data)
		return nil, nil
	}
	for _, name := range []string{"addr", "line_str", "loclists", "rnglists", "str_offsets"} {
		if b := get(name); b != nil {
			if err := d.AddSection(".debug_"+name, b); err != nil {
				mmapfile.Unmap(data)
				return nil, nil
			}
		}
	}
	if b := get("types"); b != nil {
		if err := d.AddTypes("types", b); err != nil {
			mmapfile.Unmap(data)
			return nil, nil
		}
	}
	return d, data
}

// unmapper releases a mapping at Close.
type unmapper []byte

func (u unmapper) Close() error { return mmapfile.Unmap(u) }
