package arm64

import (
	"encoding/binary"
	"testing"
)

// FuzzDecode checks Decode on arbitrary bytes: no panic, 4-byte
// instructions whenever 4 bytes are left, and the kind of a word is the
// same whatever follows it.
func FuzzDecode(f *testing.F) {
	for _, w := range []uint32{0xd65f03c0, 0xd65f0bff, 0x94000000, 0x54000010, 0xd73f0c22, 0x5500005f} {
		f.Add(binary.LittleEndian.AppendUint32(nil, w))
	}
	f.Add([]byte{1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		n, kind, ok := Decode(b)
		if n < 1 || n > MaxInstLen || ok != (len(b) >= 4) || (ok && n != 4) {
			t.Fatalf("Decode(% x) = %d, %v", b, n, ok)
		}
		if ok && kind != KindOf(binary.LittleEndian.Uint32(b)) {
			t.Fatalf("Decode(% x): kind %v, KindOf %v", b, kind, KindOf(binary.LittleEndian.Uint32(b)))
		}
	})
}
