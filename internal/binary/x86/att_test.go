package x86

import "testing"

// TestText checks instruction texts llvm-profgen-19 --show-disassembly-only
// printed for these bytes at these addresses (the listing test compares
// whole binaries).
func TestText(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		pc   uint64
		want string
	}{
		{[]byte{0x48, 0x83, 0xec, 0x08}, 0x8000, "\tsubq\t$8, %rsp"},
		{[]byte{0x48, 0x8b, 0x05, 0xa5, 0x2f, 0x0b, 0x00}, 0x8004, "\tmovq\t733093(%rip), %rax"},
		{[]byte{0x74, 0x02}, 0x800e, "\tje\t0x8012"},
		{[]byte{0xff, 0xd0}, 0x8010, "\tcallq\t*%rax"},
		{[]byte{0xc3}, 0, "\tretq"},
		{[]byte{0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}, 0, "\tnopw\t%cs:(%rax,%rax)"},
		{[]byte{0x81, 0xff, 0x19, 0xfc, 0xff, 0xff}, 0, "\tcmpl\t$4294966297, %edi"}, // imm32 of a 32-bit operation: unsigned
		{[]byte{0x83, 0xc7, 0xfd}, 0, "\taddl\t$-3, %edi"},                           // sign-extended imm8
		{[]byte{0x48, 0x83, 0xe4, 0xf0}, 0, "\tandq\t$-16, %rsp"},
		{[]byte{0x80, 0xe2, 0xdf}, 0, "\tandb\t$-33, %dl"},
		{[]byte{0x48, 0x8d, 0x3d, 0x85, 0xff, 0xff, 0xff}, 0, "\tleaq\t-123(%rip), %rdi"},
		{[]byte{0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0}, 0, "\tmovq\t%fs:40, %rax"},
		{[]byte{0x48, 0x63, 0x04, 0x82}, 0, "\tmovslq\t(%rdx,%rax,4), %rax"},
		{[]byte{0x0f, 0xb7, 0xc0}, 0, "\tmovzwl\t%ax, %eax"},
		{[]byte{0xf3, 0xa4}, 0, "\trep\t\tmovsb\t(%rsi), %es:(%rdi)"},
		{[]byte{0xf3, 0xc3}, 0, "\trep\t\tretq"},
		{[]byte{0xf0}, 0, "\tlock"},
		{[]byte{0xf3, 0x0f, 0x1e, 0xfa}, 0, "\tendbr64"},
		{[]byte{0xc5, 0xf8, 0x77}, 0, "\tvzeroupper"},
		{[]byte{0xc5, 0xfb, 0x59, 0x05, 0xd7, 0xf5, 0x06, 0x00}, 0, "\tvmulsd\t456151(%rip), %xmm0, %xmm0"},
		{[]byte{0xf2, 0x0f, 0xc2, 0xc8, 0x04}, 0, "\tcmpneqsd\t%xmm0, %xmm1"},
		{[]byte{0xf2, 0x0f, 0x10, 0x07}, 0, "\tmovsd\t(%rdi), %xmm0"},
		{[]byte{0x66, 0x4c, 0x0f, 0x38, 0xf6, 0xeb}, 0, "\tadcxq\t%rbx, %r13"},
		{[]byte{0x62, 0xf1, 0x6d, 0xc9, 0xfe, 0xd9}, 0, "\tvpaddd\t%zmm1, %zmm2, %zmm3 {%k1} {z}"},
		{[]byte{0xcc}, 0, "\tint3"},
		{[]byte{0x0f, 0xff}, 0, "\t<unknown>"},
	} {
		if got := Text(c.b, c.pc); got != c.want {
			t.Errorf("Text(% x) = %q, want %q", c.b, got, c.want)
		}
	}
}

// FuzzText checks Text on arbitrary bytes: no panic, text for what
// Decode decodes, "<unknown>" for the rest.
func FuzzText(f *testing.F) {
	for _, b := range [][]byte{
		{0xf3, 0x0f, 0x1e, 0xfa}, {0xf0, 0x83, 0x07, 0x01}, {0xc5, 0xf8, 0x77}, {0xf3, 0x0f, 0xae, 0xe0},
		{0x66, 0x4c, 0x0f, 0x38, 0xf6, 0xf8}, {0x8f, 0xe8, 0x78, 0xc2, 0xc0, 0x07}, {0xd5, 0x4b, 0x35, 1, 2, 3, 4},
	} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text := Text(b, 0x1000)
		if _, _, ok := Decode(b); ok == (text == "\t<unknown>") || text == "" || text[0] != '\t' {
			t.Fatalf("Text(% x) = %q, decoded %v", b, text, ok)
		}
	})
}
