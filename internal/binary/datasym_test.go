package binary

import "testing"

// dap.bin (cmd/profgen's parity input) is a PIE whose vtables sit in
// .data.rel.ro, in the read-write segment at file offset 0x2d10, virtual
// address 0x3d10.
func TestDataSymbolAt(t *testing.T) {
	f, err := Open("../../cmd/profgen/testdata/parity/dap.bin", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tests := []struct {
		addr uint64
		want string
	}{
		{0x3d20, "_ZTV8Derived1"},
		{0x3d47, "_ZTV8Derived1"},
		{0x3d48, "_ZTI8Derived1"}, // the next symbol, a type_info
		{0x3d80, "_ZTVN12_GLOBAL__N_18Derived2E"},
		{0x11d6, ""}, // code
	}
	for _, tt := range tests {
		s, _ := f.DataSymbolAt(tt.addr)
		if s.Name != tt.want {
			t.Errorf("%#x: %q, want %q", tt.addr, s.Name, tt.want)
		}
	}
	for _, tt := range []struct {
		off, want uint64
		ok        bool
	}{{0x2d20, 0x3d20, true}, {0x2010, 0x2010, true}, {0x1100, 0, false}} {
		if va, ok := f.NonTextAddress(tt.off); va != tt.want || ok != tt.ok {
			t.Errorf("offset %#x: %#x %v, want %#x %v", tt.off, va, ok, tt.want, tt.ok)
		}
	}
}
