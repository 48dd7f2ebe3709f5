package arm64

import (
	"encoding/binary"
	"testing"
)

// TestText checks instruction texts llvm-profgen-19 --show-disassembly-only
// printed for these words at these addresses (the listing test compares
// whole binaries). llvm-profgen gives LLVM's printer the address of the
// next instruction, so targets are 4 bytes past the real ones.
func TestText(t *testing.T) {
	for _, c := range []struct {
		w    uint32
		pc   uint64
		want string
	}{
		{0xa9bf7bfd, 0x59c, "\tstp\tx29, x30, [sp, #-16]!"},
		{0x910003fd, 0x5a0, "\tmov\tx29, sp"},
		{0xa8c17bfd, 0x5a8, "\tldp\tx29, x30, [sp], #16"},
		{0xd65f03c0, 0x5ac, "\tret"},
		{0xd503201f, 0, "\tnop"},
		{0x97ffffda, 0x5a4, "\tbl\t0x510"},
		{0x90000000, 0x674, "\tadrp\tx0, 0x0"},
		{0xb4000040, 0x67c, "\tcbz\tx0, 0x688"},
		{0x54000061, 0x1000, "\tb.ne\t0x1010"},
		{0x54000062, 0x1000, "\tb.hs\t0x1010"},
		{0xd503233f, 0, "\thint\t#25"},
		{0xd4200020, 0, "\tbrk\t#0x1"},
		{0xd4200000, 0, "\tbrk\t#0"},
		{0xd4000001, 0, "\tsvc\t#0"},
		{0x00000000, 0, "\tudf\t#0"},
		{0x12145678, 0, "\tand\tw24, w19, #0xfffff003"},
		{0x92800001, 0, "\tmov\tx1, #-1"},
		{0x1e602008, 0, "\tfcmp\td0, #0.0"},
		{0x1e6e1000, 0, "\tfmov\td0, #1.00000000"},
		{0x6f00e400, 0, "\tmovi\tv0.2d, #0000000000000000"},
		{0x2f08a631, 0, "\tushll\tv17.8h, v17.8b, #0"},
		{0x4cdf2140, 0, "\tld1\t{ v0.16b, v1.16b, v2.16b, v3.16b }, [x10], #64"},
		{0xd53bd040, 0, "\tmrs\tx0, TPIDR_EL0"},
		{0xd5033fdf, 0, "\tisb"},
		{0xf8206820, 0, "\tstr\tx0, [x1, x0]"},
		{0x4e284800, 0, "\t<unknown>"}, // aese: llvm-profgen enables no extension
		{0xd503477f, 0, "\tsmstart"},
		{0xd503467f, 0, "\tsmstop"},
	} {
		b := binary.LittleEndian.AppendUint32(nil, c.w)
		if got := Text(b, c.pc); got != c.want {
			t.Errorf("Text(%#08x) = %q, want %q", c.w, got, c.want)
		}
	}
}

// FuzzText checks Text on arbitrary bytes: no panic, a tab-led text.
func FuzzText(f *testing.F) {
	for _, w := range []uint32{0xd65f03c0, 0x4cdf2140, 0x1e6e1000, 0x6f00e400, 0xd53bd040, 0x94000000} {
		f.Add(binary.LittleEndian.AppendUint32(nil, w))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if text := Text(b, 0x1000); text == "" || text[0] != '\t' {
			t.Fatalf("Text(% x) = %q", b, text)
		}
	})
}
