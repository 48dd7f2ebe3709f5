package main

import (
	"github.com/profgen/profgen/internal/binary"
	"github.com/profgen/profgen/internal/driver"
)

// openBinary opens the profiled ELF binary for the LBR pipeline.
func openBinary(path, debugPath string) (driver.Binary, func(), error) {
	f, err := binary.Open(path, binary.Options{DebugPath: debugPath})
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}
