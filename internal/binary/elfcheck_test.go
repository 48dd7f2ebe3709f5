package binary

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestTruncatedELFNamesThePosition: a cut ELF is reported with what runs
// past the end, not debug/elf's bare "EOF".
func TestTruncatedELFNamesThePosition(t *testing.T) {
	data, err := os.ReadFile("testdata/clang-pie.elf")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		size int
		want string
	}{
		{30, "the ELF header (52 or 64 bytes) is cut short at byte 30"},
		{3000, "the section header table at offset 0x"},
	} {
		_, err := NewFile(bytes.NewReader(data[:tt.size]), "p.elf", Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "p.elf: ") {
			t.Errorf("%d bytes: %v, want %q", tt.size, err, tt.want)
		}
	}
}
