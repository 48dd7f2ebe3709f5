// gowrap calls a method through a method value: the Go compiler makes a
// wrapper, main.(*encoder).encode-fm, which Go's profiler leaves out of
// stacks. Built and recorded by TestGoWrapperFolded.
package main

import (
	"fmt"
	"os"
	"strconv"
)

type encoder struct{ state uint64 }

//go:noinline
func (e *encoder) encode(x uint64) uint64 {
	for i := uint64(0); i < 64; i++ {
		e.state = e.state*6364136223846793005 + x + i
	}
	return e.state
}

//go:noinline
func apply(f func(uint64) uint64, n int) uint64 {
	var s uint64
	for i := 0; i < n; i++ {
		s += f(uint64(i))
	}
	return s
}

func main() {
	n := 4000000
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	e := &encoder{}
	fmt.Println(apply(e.encode, n))
}
