package binary_test

import (
	"fmt"
	"log"

	"github.com/profgen/profgen/internal/binary"
)

// A perf MMAP2 event gives the runtime base; LBR addresses are then mapped
// to canonical addresses, checked as code, and ranges walked.
func Example() {
	f, err := binary.Open("testdata/clang-nopie.elf", binary.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	base, ok := f.RuntimeBase(0x400000, 0) // [0x400000(...) @ 0 ...]: r-xp clang-nopie.elf
	fmt.Printf("preferred base %#x, runtime base %#x %v\n", f.PreferredBase(), base, ok)

	var leaf binary.Symbol
	for _, s := range f.FuncSymbols() {
		if s.Name == "leaf" {
			leaf = s
		}
	}
	addr := f.CanonicalAddr(leaf.Addr, base)
	fmt.Println("leaf is code:", f.IsCode(addr))
	for in := range f.Insts(leaf.Addr, leaf.Addr+leaf.Size-1) {
		fmt.Printf("%#x %d %v\n", in.Addr, in.Size, in.Kind)
	}
	fmt.Println("falls through:", !f.CrossesUncondBranch(leaf.Addr, leaf.Addr+leaf.Size-1))
	// Output:
	// preferred base 0x400000, runtime base 0x400000 true
	// leaf is code: true
	// 0x400530 3 other
	// 0x400533 2 other
	// 0x400535 1 return
	// falls through: true
}
