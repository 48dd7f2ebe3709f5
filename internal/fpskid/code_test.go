package fpskid

import "testing"

// TestInstAt checks instAt's block index against a binary search of the
// instructions, at every address in and around each function of skid.elf.
func TestInstAt(t *testing.T) {
	f := skidELF(t)
	c := newCode(f)
	for _, sym := range f.FuncSymbols() {
		fn := c.funcAt(sym.Addr)
		if fn == nil || len(fn.insts) == 0 {
			continue
		}
		for addr := fn.entry - min(fn.entry, 3); addr < fn.end+3; addr++ {
			if got, want := fn.instAt(addr), fn.searchInst(addr); got != want {
				t.Fatalf("%s: instAt(%#x) = %d, want %d", sym.Name, addr, got, want)
			}
		}
	}
}
