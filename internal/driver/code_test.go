package driver

import (
	"testing"

	"github.com/profgen/profgen/internal/binary"
)

// openTestBinary opens a binary with the decoder the CLI uses.
func openTestBinary(t testing.TB, path string) Binary {
	f, err := binary.Open(path, binary.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
