package merge

import (
	"debug/elf"
	"fmt"

	elfbin "github.com/profgen/profgen/internal/binary"
)

// BuildID returns the GNU build id of an ELF binary.
func BuildID(path string) ([]byte, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	id, err := elfbin.BuildIDOf(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if id == nil {
		return nil, fmt.Errorf("%s: no GNU build id note (link with -Wl,--build-id)", path)
	}
	return id, nil
}
