package symbolize

import (
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"testing"
)

// FuzzNew builds tables from arbitrary ELF bytes and queries them: bad
// DWARF must give an error, never a panic.
func FuzzNew(f *testing.F) {
	seeds, _ := filepath.Glob("../generate/testdata/gcc-*.bin")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ef, err := elf.NewFile(bytes.NewReader(b))
		if err != nil {
			return
		}
		tab, err := newFromELF(ef)
		if err != nil {
			return
		}
		var buf []Frame
		for _, r := range tab.lines {
			buf = tab.Frames(r.addr, buf)
			tab.FuncRangeAt(r.addr)
		}
	})
}
