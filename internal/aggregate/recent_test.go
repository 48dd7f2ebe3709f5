package aggregate

import (
	"slices"
	"testing"

	"github.com/profgen/profgen/internal/addrspace"
	"github.com/profgen/profgen/internal/record"
)

// TestPlaceThroughRecentDSOs: frames placed through the cache of recent
// DSO paths land in the objects, and with the addresses, that matching
// every frame anew gives, with more paths than the cache holds, a binary
// by its base name, and an offset outside the binary's code (which keeps
// the object the path already has).
func TestPlaceThroughRecentDSOs(t *testing.T) {
	frames := []struct {
		path    string
		off     uint64
		wantObj string
		bin     int
		addr    uint64
	}{
		{"/bin/big", 0x10, "/bin/big", 0, 0x400010},
		{"/lib/a.so", 0x20, "/lib/a.so", -1, 0x20},
		{"/lib/b.so", 0x30, "/lib/b.so", -1, 0x30},
		{"/lib/c.so", 0x40, "/lib/c.so", -1, 0x40},
		{"/lib/d.so", 0x50, "/lib/d.so", -1, 0x50},
		{"/bin/big", 0xd00000, "/bin/big", 0, 0xd00000}, // outside the code: the file offset
		{"/lib/a.so", 0x21, "/lib/a.so", -1, 0x21},
		{"/other/big", 0x11, "/other/big", 0, 0x400011}, // the binary, by base name
		{"/bin/big", 0x12, "/bin/big", 0, 0x400012},
	}
	a := NewStacks([]StackBinary{nonPIE{}}, addrspace.New(addrspace.Binary{}, nil))
	for _, f := range frames {
		l := a.place(f.path, f.off, record.Frame{Addr: f.off, DSO: f.path, Relative: true})
		o := a.counts.Objects[l.Obj]
		if o.Path != f.wantObj || o.Binary != f.bin || l.Addr != f.addr {
			t.Errorf("%s+%#x: %s (binary %d) @%#x, want %s (binary %d) @%#x", f.path, f.off, o.Path, o.Binary, l.Addr, f.wantObj, f.bin, f.addr)
		}
		if i := a.objects[f.path]; i != l.Obj {
			t.Errorf("%s: object %d, the table says %d", f.path, l.Obj, i)
		}
	}
	if a.counts.Stats.Unplaced != 1 {
		t.Errorf("%d unplaced frames, want 1", a.counts.Stats.Unplaced)
	}
}

// TestSortedStacks: stacks come in the byte order of their keys, keys
// that share eight bytes or are shorter than eight included.
func TestSortedStacks(t *testing.T) {
	keys := []string{
		"", "\x00", "\x01", "\x01\x00", "\x01\x02\x03\x04\x05\x06\x07\x08", "\x01\x02\x03\x04\x05\x06\x07\x08\x00",
		"\x01\x02\x03\x04\x05\x06\x07\x08\x09", "\x01\x02\x03\x04\x05\x06\x07\x09", "\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\x01", "\x80\x01",
	}
	m := map[string]*Stack{}
	for i, k := range keys {
		m[k] = &Stack{Count: uint64(i)}
	}
	want := slices.Clone(keys)
	slices.Sort(want)
	got := sortedStacks(m)
	for i, st := range got {
		if k := keys[st.Count]; k != want[i] {
			t.Errorf("stack %d has key %q, want %q", i, k, want[i])
		}
	}
}
