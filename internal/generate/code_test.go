package generate

import (
	"debug/elf"
	"iter"
	"sort"

	"golang.org/x/arch/x86/x86asm"
)

// testCode decodes the executable sections of an ELF file symbol by symbol,
// as llvm-profgen does, for tests until internal/binary provides it.
type testCode struct {
	addrs []uint64
	insts map[uint64]x86asm.Inst
	sizes map[uint64]uint64
}

func newTestCode(f *elf.File) (*testCode, error) {
	c := &testCode{insts: map[uint64]x86asm.Inst{}, sizes: map[uint64]uint64{}}
	syms, _ := f.Symbols()
	for i, s := range f.Sections {
		if s.Flags&elf.SHF_EXECINSTR == 0 || s.Type != elf.SHT_PROGBITS {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return nil, err
		}
		var starts []uint64
		for _, sym := range syms {
			if int(sym.Section) == i {
				starts = append(starts, sym.Value)
			}
		}
		sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
		for j, start := range starts {
			end := s.Addr + s.Size
			if j+1 < len(starts) {
				end = starts[j+1]
			}
			c.decode(data, s.Addr, start, end)
		}
	}
	sort.Slice(c.addrs, func(i, j int) bool { return c.addrs[i] < c.addrs[j] })
	return c, nil
}

func (c *testCode) decode(data []byte, base, start, end uint64) {
	for a := start; a < end; {
		b := data[a-base : end-base]
		if _, ok := c.sizes[a]; ok {
			return
		}
		size := uint64(1)
		if len(b) >= 4 && b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && (b[3] == 0xfa || b[3] == 0xfb) {
			size = 4 // endbr64 / endbr32, which x86asm reads as one byte
			c.insts[a] = x86asm.Inst{Op: x86asm.NOP, Len: 4}
		} else if in, err := x86asm.Decode(b, 64); err == nil {
			size = uint64(in.Len)
			c.insts[a] = in
		} else {
			a++
			continue
		}
		c.sizes[a] = size
		c.addrs = append(c.addrs, a)
		a += size
	}
}

func (c *testCode) Insts(first, last uint64) iter.Seq2[uint64, uint64] {
	return func(yield func(uint64, uint64) bool) {
		i := sort.Search(len(c.addrs), func(i int) bool { return c.addrs[i] >= first })
		for ; i < len(c.addrs) && c.addrs[i] <= last; i++ {
			if !yield(c.addrs[i], c.sizes[c.addrs[i]]) {
				return
			}
		}
	}
}
