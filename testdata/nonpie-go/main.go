// Command nonpiego is a CPU-bound Go workload whose binary has more than
// 8 MiB of text, built non-PIE (Go's default on linux/amd64: ET_EXEC at
// 0x400000). It links a large part of the standard library (net/http,
// crypto, text/template, go/types, encoding/*, ...), so package main's
// code lies far above 0x800000: call-chain addresses perf 6.1 prints
// relative to the binary (file offsets) then fall inside its absolute
// mapping too, which is how a reader that guesses goes wrong.
//
// The hot work is in a few functions of package main: sieve, collatz,
// matmul and hashRounds (which calls crypto/sha256). Usage: nonpiego
// ROUNDS; the output is one line, the same for the same ROUNDS.
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"strconv"
)

//go:noinline
func sieve(n int) int {
	composite := make([]bool, n+1)
	count := 0
	for i := 2; i <= n; i++ {
		if composite[i] {
			continue
		}
		count++
		for j := i * i; j <= n; j += i {
			composite[j] = true
		}
	}
	return count
}

//go:noinline
func collatz(limit uint64) uint64 {
	var best uint64
	for start := uint64(1); start < limit; start++ {
		steps, x := uint64(0), start
		for x != 1 {
			if x&1 == 0 {
				x >>= 1
			} else {
				x = 3*x + 1
			}
			steps++
		}
		best = max(best, steps)
	}
	return best
}

//go:noinline
func matmul(n int, seed float64) float64 {
	a, b, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range a {
		a[i] = float64(i%7) + seed
		b[i] = float64(i%5) - seed
	}
	for i := 0; i < n; i++ {
		for k := 0; k < n; k++ {
			aik := a[i*n+k]
			for j := 0; j < n; j++ {
				c[i*n+j] += aik * b[k*n+j]
			}
		}
	}
	return c[n*n/2]
}

//go:noinline
func hashRounds(rounds int, seed byte) byte {
	sum := sha256.Sum256([]byte{seed})
	for i := 0; i < rounds; i++ {
		sum = sha256.Sum256(sum[:])
	}
	return sum[0]
}

func main() {
	rounds := 1900
	if len(os.Args) > 1 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "usage: nonpiego ROUNDS")
			os.Exit(2)
		}
		rounds = n
	}
	if rounds < 0 {
		fmt.Println(cold(-rounds))
		return
	}
	var acc uint64
	for r := 0; r < rounds; r++ {
		acc += uint64(sieve(400000 + r%64))
		acc += collatz(10000 + uint64(r%64))
		acc += uint64(matmul(90, float64(r)))
		acc += uint64(hashRounds(6000, byte(r)))
	}
	fmt.Println(acc, len(linked))
}
