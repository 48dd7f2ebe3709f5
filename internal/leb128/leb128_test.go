package leb128

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"testing"
)

// The cases of LLVM's unittests/Support/LEB128Test.cpp, and the bounds.
var uintTests = []struct {
	in   []byte
	v    uint64
	n    int
	over bool
}{
	{[]byte{0}, 0, 1, false},
	{[]byte{1}, 1, 1, false},
	{[]byte{0x3f}, 63, 1, false},
	{[]byte{0x40}, 64, 1, false},
	{[]byte{0x7f}, 0x7f, 1, false},
	{[]byte{0x80, 1}, 0x80, 2, false},
	{[]byte{0x81, 1}, 0x81, 2, false},
	{[]byte{0x90, 1}, 0x90, 2, false},
	{[]byte{0xff, 1}, 0xff, 2, false},
	{[]byte{0x80, 2}, 0x100, 2, false},
	{[]byte{0x81, 2}, 0x101, 2, false},
	{[]byte{0x80, 0xc1, 0x80, 0x80, 0x10}, 0x100002080, 5, false},
	{[]byte{0x80, 0x80, 0}, 0, 3, false},                 // padding
	{[]byte{0x81, 0x80, 0x80, 0}, 1, 4, false},           // padding
	{[]byte{0x81}, 1, 0, false},                          // truncated
	{[]byte{}, 0, 0, false},                              // empty
	{[]byte{0x80, 0x80, 0x80}, 0, 0, false},              // truncated
	{bytes.Repeat([]byte{0xff}, 9), 1<<63 - 1, 0, false}, // truncated before byte 9
	{append(bytes.Repeat([]byte{0xff}, 9), 1), math.MaxUint64, 10, false},
	{append(bytes.Repeat([]byte{0xff}, 9), 2), 1<<63 - 1, 10, true},
	{append(bytes.Repeat([]byte{0xff}, 9), 0x81), math.MaxUint64, 0, false}, // truncated
	{append(bytes.Repeat([]byte{0xff}, 9), 0x83), math.MaxUint64, 0, true},  // overflow, then truncated
	{append(bytes.Repeat([]byte{0x80}, 12), 0), 0, 13, false},               // long padding
	{append(append(bytes.Repeat([]byte{0x80}, 10), 0x81), 0), 0, 12, true},  // a bit far past
	{append(append(bytes.Repeat([]byte{0xff}, 9), 0x81), 0x80, 0), math.MaxUint64, 12, false},
}

func TestUint(t *testing.T) {
	for _, tt := range uintTests {
		v, n := Uint(tt.in)
		over := UintOverflows(tt.in)
		if v != tt.v || n != tt.n || over != tt.over {
			t.Errorf("Uint(% x) = %#x, %d, %v; want %#x, %d, %v", tt.in, v, n, over, tt.v, tt.n, tt.over)
		}
	}
}

var intTests = []struct {
	in   []byte
	v    int64
	n    int
	over bool
}{
	{[]byte{0}, 0, 1, false},
	{[]byte{1}, 1, 1, false},
	{[]byte{0x3f}, 63, 1, false},
	{[]byte{0x40}, -64, 1, false},
	{[]byte{0x41}, -63, 1, false},
	{[]byte{0x7f}, -1, 1, false},
	{[]byte{0x80, 1}, 128, 2, false},
	{[]byte{0x81, 1}, 129, 2, false},
	{[]byte{0xff, 0x7e}, -129, 2, false},
	{[]byte{0x80, 0x7f}, -128, 2, false},
	{[]byte{0x81, 0x7f}, -127, 2, false},
	{[]byte{0xc0, 0}, 64, 2, false},
	{[]byte{0xc7, 0x9f, 0x7f}, -12345, 3, false},
	{[]byte{0xff, 0x7f}, -1, 2, false},           // padding
	{[]byte{0x80, 0x81, 0x80, 0}, 128, 4, false}, // padding
	{[]byte{0xff}, 0x7f, 0, false},               // truncated
	{[]byte{}, 0, 0, false},
	{append(bytes.Repeat([]byte{0x80}, 9), 0x7f), math.MinInt64, 10, false},
	{append(bytes.Repeat([]byte{0xff}, 9), 0), math.MaxInt64, 10, false},
	{append(bytes.Repeat([]byte{0x80}, 9), 1), math.MinInt64, 10, true},
	{append(bytes.Repeat([]byte{0xff}, 9), 0x7e), math.MaxInt64, 10, true},
	{append(bytes.Repeat([]byte{0xff}, 10), 0x7f), -1, 11, false},
	{append(bytes.Repeat([]byte{0xff}, 10), 0x3f), -1, 11, true},
	{append(bytes.Repeat([]byte{0x80}, 10), 0), 0, 11, false},
	{append(bytes.Repeat([]byte{0x80}, 10), 0x40), 0, 11, true},
}

func TestInt(t *testing.T) {
	for _, tt := range intTests {
		v, n := Int(tt.in)
		over := IntOverflows(tt.in)
		if v != tt.v || n != tt.n || over != tt.over {
			t.Errorf("Int(% x) = %d, %d, %v; want %d, %d, %v", tt.in, v, n, over, tt.v, tt.n, tt.over)
		}
	}
}

func TestAppend(t *testing.T) {
	for _, v := range []uint64{0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 1<<63 - 1, math.MaxUint64} {
		b := AppendUint([]byte{9}, v)
		if got, n := Uint(b[1:]); got != v || n != len(b)-1 || UintOverflows(b[1:]) {
			t.Errorf("AppendUint(%#x) = % x, decodes to %#x, %d", v, b, got, n)
		}
	}
	for _, v := range []int64{0, 1, -1, 63, 64, -64, -65, 1<<62 - 1, -1 << 62, math.MaxInt64, math.MinInt64} {
		b := AppendInt([]byte{9}, v)
		if got, n := Int(b[1:]); got != v || n != len(b)-1 || IntOverflows(b[1:]) {
			t.Errorf("AppendInt(%d) = % x, decodes to %d, %d", v, b, got, n)
		}
	}
	if got := AppendInt(nil, -129); !bytes.Equal(got, []byte{0xff, 0x7e}) {
		t.Errorf("AppendInt(-129) = % x, want ff 7e", got)
	}
}

// bitsRead is the number in the bytes of a LEB128 number that Uint or
// Int reads, as a big integer of 7 bits a byte, and their count.
func bitsRead(b []byte) (*big.Int, int) {
	x := new(big.Int)
	for i, c := range b {
		for j := range 7 {
			x.SetBit(x, 7*i+j, uint(c>>j&1))
		}
		if c < 0x80 {
			return x, i + 1
		}
	}
	return x, 0
}

// FuzzDecode checks Uint, Int and their overflow checks against the number held by the bytes
// they read (math/big), against binary.Uvarint where it takes the
// number, and the encoders against the decoders.
func FuzzDecode(f *testing.F) {
	for _, tt := range uintTests {
		f.Add(tt.in)
	}
	for _, tt := range intTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		x, n := bitsRead(b)
		width := 7 * n
		if n == 0 {
			width = 7 * len(b)
		}
		low := new(big.Int).And(x, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
		v, un := Uint(b)
		over := UintOverflows(b)
		if v != low || un != n || over != (x.BitLen() > 64) {
			t.Fatalf("Uint(% x) = %#x, %d, %v; the bits read are %#x (%d bytes)", b, v, un, over, x, n)
		}
		if sv, sn := Uint(string(b)); sv != v || sn != un {
			t.Fatalf("Uint(%q) = %#x, %d; of the bytes: %#x, %d", b, sv, sn, v, un)
		}
		if gv, gn := binary.Uvarint(b); gn > 0 && (gv != v || gn != un || over) {
			t.Fatalf("Uint(% x) = %#x, %d, %v; binary.Uvarint: %#x, %d", b, v, un, over, gv, gn)
		}
		sv, sn := Int(b)
		sover := IntOverflows(b)
		if n > 0 && n < 10 && width > 0 && x.Bit(width-1) == 1 {
			low |= math.MaxUint64 << width
		}
		if sv != int64(low) || sn != n || sover != !sameBitsFrom63(x, width) {
			t.Fatalf("Int(% x) = %d, %d, %v; the bits read are %#x (%d bytes)", b, sv, sn, sover, x, n)
		}
		if un > 0 && !over {
			if e := AppendUint(nil, v); len(e) > un {
				t.Fatalf("AppendUint(%#x) = % x, longer than % x", v, e, b[:un])
			} else if d, _ := Uint(e); d != v {
				t.Fatalf("AppendUint(%#x) = % x, decodes to %#x", v, e, d)
			}
		}
		if sn > 0 && !sover {
			if e := AppendInt(nil, sv); len(e) > sn {
				t.Fatalf("AppendInt(%d) = % x, longer than % x", sv, e, b[:sn])
			} else if d, _ := Int(e); d != sv {
				t.Fatalf("AppendInt(%d) = % x, decodes to %d", sv, e, d)
			}
		}
	})
}

// sameBitsFrom63 tells that bits 63 to width-1 of x are all alike.
func sameBitsFrom63(x *big.Int, width int) bool {
	for i := 64; i < width; i++ {
		if x.Bit(i) != x.Bit(63) {
			return false
		}
	}
	return true
}
