package x86

import "testing"

// FuzzDecode checks Decode on arbitrary bytes: no panic, and a size
// that moves forward and stays within the instruction limit.
func FuzzDecode(f *testing.F) {
	for _, b := range [][]byte{
		{0xf3, 0x0f, 0x1e, 0xfa}, {0xf0, 0x83, 0x07, 0x01}, {0xc5, 0xf8, 0x77},
		{0x66, 0x4c, 0x0f, 0x38, 0xf6, 0xf8}, {0x8f, 0xe8, 0x78, 0xc2, 0xc0, 0x07}, {0xd5, 0x4b, 0x35, 1, 2, 3, 4},
	} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n, _, ok := Decode(b)
		if n < 1 || n > MaxInstLen || (ok && n > len(b)) {
			t.Fatalf("Decode(% x) = %d, %v", b, n, ok)
		}
	})
}

// FuzzFastDecode checks the fast path against x86asm (with LLVM's special
// cases) wherever both decode: x86asm rejects some encodings LLVM accepts
// (for example nop with REX.W), so only disagreements between two
// decodings fail. TestFastDecodeMatchesLLVM checks against LLVM itself.
func FuzzFastDecode(f *testing.F) {
	for _, b := range [][]byte{
		{0x48, 0x8d, 0x05, 1, 2, 3, 4}, {0x66, 0x0f, 0x1f, 0x44, 0, 0}, {0x41, 0xff, 0x24, 0xc4},
		{0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8}, {0x66, 0x81, 0x7c, 0x24, 8, 1, 2}, {0x0f, 0x85, 1, 2, 3, 4},
	} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n, kind, ok := fastDecode(b)
		if !ok {
			return
		}
		sn, skind, sok := decodeInstSlow(b)
		if sok && (n != sn || kind != skind) {
			t.Fatalf("% x: fast %d %v, x86asm %d %v %v", b, n, kind, sn, skind, sok)
		}
	})
}

// FuzzFlowOf checks FlowOf on arbitrary bytes: no panic, registers and
// shapes in range, and registers only for the shapes that name them.
func FuzzFlowOf(f *testing.F) {
	for _, b := range [][]byte{
		{0x48, 0x8d, 0x0d, 0x97, 0x0e, 0, 0}, {0x4c, 0x63, 0x0c, 0xb1}, {0x49, 0x01, 0xc9}, {0x41, 0xff, 0xe1},
		{0xff, 0x24, 0xc5, 0x70, 0x20, 0x40, 0}, {0xf3, 0x48, 0xab}, {0xf6, 0xe1}, {0x48, 0x87, 0xd9},
	} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fl := FlowOf(b, 0x1000)
		if fl.Writes>>16 != 0 || fl.Shape > ShapeJumpMem || fl.Dst < NoGPR || fl.Dst > RIP || fl.Src < NoGPR || fl.Src > RIP {
			t.Fatalf("FlowOf(% x) = %+v", b, fl)
		}
		if fl.Shape == ShapeOther && (fl.Dst != NoGPR || fl.Src != NoGPR) {
			t.Fatalf("FlowOf(% x) = %+v: registers without a shape", b, fl)
		}
	})
}
