package perfsyms

import (
	"debug/elf"
	"encoding/binary"
)

// pltStub is one PLT entry: [start, end) in addresses, and its name.
type pltStub struct {
	start, end uint64
	name       string
}

// pltSymbols are the PLT stubs as perf 6.1 names them
// (dso__synthesize_plt_symbols): the relocations of .rela.plt, in order,
// name the entries of .plt after its first (PLT0), `name@plt`, and `@plt`
// for a relocation without a symbol (R_X86_64_IRELATIVE). This differs
// from internal/binary's PLT symbols, which follow each stub's jump to its
// GOT slot as objdump does.
func pltSymbols(f *elf.File) []pltStub {
	plt, rela := f.Section(".plt"), f.Section(".rela.plt")
	if plt == nil || rela == nil || plt.Type != elf.SHT_PROGBITS || f.Class != elf.ELFCLASS64 {
		return nil
	}
	data, err := rela.Data()
	if err != nil {
		return nil
	}
	dyn, _ := f.DynamicSymbols()
	size := plt.Entsize
	if size == 0 {
		size = 16
	}
	var out []pltStub
	addr := plt.Addr + size
	for i := 0; (i+1)*24 <= len(data) && addr+size <= plt.Addr+plt.Size; i++ {
		idx := binary.LittleEndian.Uint64(data[i*24+8:]) >> 32
		name := ""
		if idx > 0 && int(idx) <= len(dyn) {
			name = dyn[idx-1].Name
		}
		out = append(out, pltStub{start: addr, end: addr + size, name: name + "@plt"})
		addr += size
	}
	return out
}
