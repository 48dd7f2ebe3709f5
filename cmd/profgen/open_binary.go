package main

import (
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/driver"
)

// openBinary opens the profiled ELF binary for the LBR pipeline.
func openBinary(path string) (driver.Binary, func(), error) {
	f, err := binary.Open(path, binary.Options{})
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}
