// Command gocpu spins for a while under Go's CPU profiler and writes the
// profile to the file named by its argument: the real runtime/pprof
// profile contprof's tests read.
package main

import (
	"os"
	"runtime/pprof"
	"time"
)

//go:noinline
func leaf(n int) int {
	s := 0
	for i := range n {
		s += i * i % 7
	}
	return s
}

//go:noinline
func mid(n int) int { return leaf(n) + 1 }

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	s := 0
	for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
		s += mid(100000)
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		panic(err)
	}
	os.Exit(s & 0)
}
