package stackpipe

import (
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/profgen/profgen/internal/callstack"
	"github.com/profgen/profgen/internal/pprofout"
	"github.com/profgen/profgen/internal/stackgen"
)

// profiledBinary is one opened profiled binary.
type profiledBinary struct {
	path    string
	file    *elf.File
	layout  *callstack.ELFBinary
	buildID string
	sym     stackgen.Symbolizer
}

func openBinaries(paths []string) ([]*profiledBinary, error) {
	var bins []*profiledBinary
	for _, p := range paths {
		b, err := openBinary(p)
		if err != nil {
			closeBinaries(bins)
			return nil, err
		}
		bins = append(bins, b)
	}
	return bins, nil
}

func openBinary(path string) (*profiledBinary, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("binary %s: %w", path, err)
	}
	sym, err := newSymbolizer(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("binary %s: %w", path, err)
	}
	return &profiledBinary{path: path, file: f, layout: callstack.NewELFBinary(path, f), buildID: buildID(f), sym: sym}, nil
}

func closeBinaries(bins []*profiledBinary) {
	for _, b := range bins {
		b.file.Close()
	}
}

// pprofBinary describes b's executable segments as a pprof mapping.
func (b *profiledBinary) pprofBinary() pprofout.Binary {
	pb := pprofout.Binary{Path: b.path, BuildID: b.buildID, Symbolizer: b.sym}
	first := true
	for _, p := range b.file.Progs {
		if p.Type != elf.PT_LOAD || p.Flags&elf.PF_X == 0 {
			continue
		}
		if first {
			pb.Start, pb.Offset, first = p.Vaddr, p.Off, false
		}
		pb.Limit = max(pb.Limit, p.Vaddr+p.Memsz)
	}
	return pb
}

// fileBuildID returns the hex GNU build id of the ELF file at path, or "".
func fileBuildID(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", fmt.Errorf("binary %s: %w", path, err)
	}
	defer f.Close()
	return buildID(f), nil
}

// buildID returns the hex GNU build id of f, or "".
func buildID(f *elf.File) string {
	for _, p := range f.Progs {
		if p.Type != elf.PT_NOTE {
			continue
		}
		data := make([]byte, p.Filesz)
		if _, err := p.ReadAt(data, 0); err != nil {
			continue
		}
		if id := findGNUBuildID(data, f.ByteOrder); id != nil {
			return hex.EncodeToString(id)
		}
	}
	return ""
}

// findGNUBuildID scans ELF notes (namesz, descsz, type, name, desc, each
// 4-aligned) for NT_GNU_BUILD_ID (3) owned by "GNU".
func findGNUBuildID(data []byte, bo binary.ByteOrder) []byte {
	for len(data) >= 12 {
		namesz, descsz, typ := bo.Uint32(data), bo.Uint32(data[4:]), bo.Uint32(data[8:])
		nameEnd := 12 + align4(uint64(namesz))
		descEnd := nameEnd + align4(uint64(descsz))
		if descEnd > uint64(len(data)) {
			return nil
		}
		if typ == 3 && namesz == 4 && string(data[12:15]) == "GNU" {
			return data[nameEnd : nameEnd+uint64(descsz)]
		}
		data = data[descEnd:]
	}
	return nil
}

func align4(n uint64) uint64 { return (n + 3) &^ 3 }
