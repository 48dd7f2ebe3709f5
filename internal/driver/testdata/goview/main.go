// goview spends its time in a goroutine of its own, half of it in system
// calls and vDSO calls (kernel and vDSO frames above its Go frames in
// perf's call chains, each goroutine's chain ending at runtime.goexit).
// Built and recorded by TestGoPprofAsGoProfilerRecords.
package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

//go:noinline
func spin(n int) uint64 {
	s := uint64(1)
	for i := 0; i < n; i++ {
		s = s*6364136223846793005 + uint64(i)
	}
	return s
}

//go:noinline
func calls(n int) int64 {
	var s int64
	for i := 0; i < n; i++ {
		s += int64(syscall.Getppid()) + time.Now().UnixNano()&1
	}
	return s
}

func work(n int, done chan<- uint64) {
	var s uint64
	for i := 0; i < n; i++ {
		s += spin(20000) + uint64(calls(200))
	}
	done <- s
}

func main() {
	n := 200
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	done := make(chan uint64)
	go work(n, done)
	fmt.Println(<-done)
}
