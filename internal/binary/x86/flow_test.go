package x86

import "testing"

// TestFlowOf checks the registers written and the shapes of the
// instructions jump-table code is made of (bytes as objdump shows them).
func TestFlowOf(t *testing.T) {
	const (
		rax GPR = iota
		rcx
		rdx
		rbx
		rsp
		rbp
		rsi
		rdi
		r9 GPR = 9
	)
	noMem := Mem{}
	for _, tc := range []struct {
		name   string
		b      []byte
		end    uint64
		writes []GPR
		shape  Shape
		dst    GPR
		src    GPR
		mem    Mem
	}{
		{"lea 0xe97(%rip),%rcx", []byte{0x48, 0x8d, 0x0d, 0x97, 0x0e, 0, 0}, 0x1179, []GPR{rcx}, ShapeLea64, rcx, NoGPR,
			Mem{Base: RIP, Index: NoGPR, Disp: 0x2010}},
		{"movslq (%rcx,%rsi,4),%r9", []byte{0x4c, 0x63, 0x0c, 0xb1}, 4, []GPR{r9}, ShapeLoadSX32, r9, NoGPR,
			Mem{Base: rcx, Index: rsi, Scale: 4}},
		{"add %rcx,%r9", []byte{0x49, 0x01, 0xc9}, 3, []GPR{r9}, ShapeAdd64, r9, rcx, noMem},
		{"jmp *%r9", []byte{0x41, 0xff, 0xe1}, 3, nil, ShapeJumpReg, r9, NoGPR, noMem},
		{"notrack jmp *%rax", []byte{0x3e, 0xff, 0xe0}, 3, nil, ShapeJumpReg, rax, NoGPR, noMem},
		{"jmp *0x402070(,%rax,8)", []byte{0xff, 0x24, 0xc5, 0x70, 0x20, 0x40, 0}, 7, nil, ShapeJumpMem, NoGPR, NoGPR,
			Mem{Base: NoGPR, Index: rax, Scale: 8, Disp: 0x402070}},
		{"mov 0x402070(,%rax,8),%rax", []byte{0x48, 0x8b, 0x04, 0xc5, 0x70, 0x20, 0x40, 0}, 8, []GPR{rax}, ShapeLoad, rax, NoGPR,
			Mem{Base: NoGPR, Index: rax, Scale: 8, Disp: 0x402070}},
		{"mov 0x0(%rip),%ah: a byte load is no ShapeLoad", []byte{0x8a, 0x25, 0, 0, 0, 0}, 0x3a, []GPR{rax}, ShapeOther, NoGPR, NoGPR, noMem},
		{"mov %edx,%esi", []byte{0x89, 0xd6}, 2, []GPR{rsi}, ShapeOther, NoGPR, NoGPR, noMem},
		{"cltq", []byte{0x48, 0x98}, 2, []GPR{rax}, ShapeOther, NoGPR, NoGPR, noMem},
		{"rep stos %rax,%es:(%rdi)", []byte{0xf3, 0x48, 0xab}, 3, []GPR{rcx, rdi}, ShapeOther, NoGPR, NoGPR, noMem},
		{"stos %rax,%es:(%rdi)", []byte{0x48, 0xab}, 2, []GPR{rdi}, ShapeOther, NoGPR, NoGPR, noMem},
		{"cmp %ecx,%eax", []byte{0x39, 0xc8}, 2, nil, ShapeOther, NoGPR, NoGPR, noMem},
		{"call: the stack pointer only", []byte{0xe8, 0, 0, 0, 0}, 5, []GPR{rsp}, ShapeOther, NoGPR, NoGPR, noMem},
		{"mul %ecx", []byte{0xf7, 0xe1}, 2, []GPR{rax, rdx}, ShapeOther, NoGPR, NoGPR, noMem},
		{"mul %cl", []byte{0xf6, 0xe1}, 2, []GPR{rax}, ShapeOther, NoGPR, NoGPR, noMem},
		{"xchg %rbx,%rcx", []byte{0x48, 0x87, 0xd9}, 3, []GPR{rcx, rbx}, ShapeOther, NoGPR, NoGPR, noMem},
		{"not an instruction", []byte{0x0f, 0xff}, 2, nil, ShapeOther, NoGPR, NoGPR, noMem},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := FlowOf(tc.b, tc.end)
			var writes uint32
			for _, r := range tc.writes {
				writes |= 1 << r
			}
			if f.Writes != writes || f.Shape != tc.shape || f.Dst != tc.dst || f.Src != tc.src {
				t.Errorf("FlowOf = writes %#x shape %d dst %d src %d, want %#x %d %d %d",
					f.Writes, f.Shape, f.Dst, f.Src, writes, tc.shape, tc.dst, tc.src)
			}
			if tc.shape != ShapeOther && tc.mem != noMem && f.Mem != tc.mem {
				t.Errorf("Mem = %+v, want %+v", f.Mem, tc.mem)
			}
		})
	}
}
