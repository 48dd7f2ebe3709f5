package bbaddrmap_test

import (
	"fmt"

	"github.com/profgen/profgen/internal/binary/bbaddrmap"
)

// The blocks of a function split into three ranges by a cc profile, one
// of them a clone of block 10 (a path-cloning `p 8 10` line).
func Example() {
	funcs, err := bbaddrmap.Open("testdata/clang22-sections-hash.elf")
	if err != nil {
		fmt.Println(err)
		return
	}
	main := funcs[len(funcs)-1]
	fmt.Printf("function at %#x, version %d\n", main.Addr(), main.Version)
	for _, r := range main.Ranges {
		fmt.Printf("range at %#x:", r.Base)
		for _, b := range r.Blocks {
			fmt.Printf(" %d", b.ID)
			if b.Meta.Has(bbaddrmap.CanFallThrough) {
				fmt.Print("↓")
			}
		}
		fmt.Println()
	}
	// Output:
	// function at 0x18c0, version 5
	// range at 0x18c0: 0↓ 1↓ 2↓ 4↓ 5↓ 10
	// range at 0x1940: 6↓ 8↓ 10 7
	// range at 0x1987: 3
}
