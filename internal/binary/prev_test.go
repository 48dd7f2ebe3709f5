package binary

import "testing"

// TestPrevInst walks every instruction of the test binaries forward and
// checks that PrevInst steps back over the same sequence, from the next
// instruction's start and from inside it.
func TestPrevInst(t *testing.T) {
	for _, name := range []string{"tricky.elf", "clang-pie.elf"} {
		t.Run(name, func(t *testing.T) {
			f := openTestdata(t, name, Options{})
			var prev Inst
			have := false
			n := 0
			for in := range f.Insts(0, ^uint64(0)-1) {
				got, ok := f.PrevInst(in.Addr)
				if ok != have || got != prev {
					t.Fatalf("PrevInst(%#x) = %+v, %v; want %+v, %v", in.Addr, got, ok, prev, have)
				}
				if in.Size > 1 {
					if got, _ := f.PrevInst(in.Addr + 1); got != in {
						t.Fatalf("PrevInst(%#x) = %+v; want %+v", in.Addr+1, got, in)
					}
				}
				prev, have = in, true
				n++
			}
			if n == 0 {
				t.Fatal("no instructions")
			}
			if got, ok := f.PrevInst(^uint64(0)); !ok || got != prev {
				t.Errorf("PrevInst(max) = %+v, %v; want the last instruction %+v", got, ok, prev)
			}
			if _, ok := f.PrevInst(0); ok {
				t.Error("PrevInst(0) found an instruction")
			}
		})
	}
}
