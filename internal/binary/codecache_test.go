package binary

import "testing"

// TestCodeCache asks a CodeCache and its File the same questions about
// every byte of the test binaries' code, twice (the second time from the
// cache, where the tables are large enough to hold the answers).
func TestCodeCache(t *testing.T) {
	for _, name := range []string{"tricky.elf", "clang-pie.elf"} {
		t.Run(name, func(t *testing.T) {
			f := openTestdata(t, name, Options{})
			c := NewCodeCache(f)
			var lo, hi uint64
			for in := range f.Insts(0, ^uint64(0)-1) {
				if lo == 0 {
					lo = in.Addr
				}
				hi = in.End()
			}
			if hi == 0 {
				t.Fatal("no instructions")
			}
			for pass := range 2 {
				for a := lo - 8; a < hi+8; a++ {
					compareCodeCache(t, pass, f, c, a)
				}
			}
		})
	}
}

func compareCodeCache(t *testing.T, pass int, f *File, c *CodeCache, a uint64) {
	t.Helper()
	got, ok := c.Inst(a)
	want, wok := f.Inst(a)
	if got != want || ok != wok {
		t.Fatalf("pass %d: Inst(%#x) = %+v, %v; want %+v, %v", pass, a, got, ok, want, wok)
	}
	got, ok = c.PrevInst(a)
	want, wok = f.PrevInst(a)
	if got != want || ok != wok {
		t.Fatalf("pass %d: PrevInst(%#x) = %+v, %v; want %+v, %v", pass, a, got, ok, want, wok)
	}
	if c.IsCode(a) != f.IsCode(a) {
		t.Fatalf("pass %d: IsCode(%#x) differs", pass, a)
	}
	for _, n := range []uint64{0, 1, 7, 40} {
		if c.CrossesUncondBranch(a, a+n) != f.CrossesUncondBranch(a, a+n) {
			t.Fatalf("pass %d: CrossesUncondBranch(%#x, +%d) differs", pass, a, n)
		}
	}
}
