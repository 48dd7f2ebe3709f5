package binary

import (
	"bytes"
	stdbinary "encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// FuzzNewFile feeds mutated ELF files and PE images to NewFile and, when
// they open, to every query: nothing may panic.
func FuzzNewFile(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.elf"))
	exes, _ := filepath.Glob(filepath.Join("testdata", "*.exe"))
	paths = append(paths, exes...)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		bf, err := NewFile(bytes.NewReader(data), "fuzz", Options{})
		if err != nil {
			return
		}
		bf.PreferredBase()
		bf.BuildID()
		bf.RuntimeBase(0x7f0000000000, 0)
		bf.DWARF()
		n := 0
		for in := range bf.Insts(0, ^uint64(0)) {
			bf.IsCode(in.Addr)
			bf.Inst(in.Addr + 1)
			bf.NextInst(in.Addr)
			bf.CrossesUncondBranch(in.Addr, in.Addr+64)
			if n++; n > 1000 {
				break
			}
		}
		lines := bf.GoLines()
		for _, s := range bf.FuncSymbols() {
			bf.FuncSymbolAt(s.Addr)
			if fn, ok := lines.FuncAt(s.Addr); ok {
				lines.Values(fn, GoTableLine)
			}
		}
	})
}

// FuzzBuildIDNote: any note data gives a build id that lies within it, or
// none, without panicking.
func FuzzBuildIDNote(f *testing.F) {
	f.Add([]byte{4, 0, 0, 0, 3, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 1, 2, 3, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 3, 0, 0, 0})
	f.Fuzz(func(t *testing.T, notes []byte) {
		id := BuildIDNote(notes, stdbinary.LittleEndian)
		if len(id) > 0 && !bytes.Contains(notes, id) {
			t.Fatalf("build id %x not in the notes", id)
		}
	})
}
