package main

import "slices"

// cold instantiates sortAll for 512 array types (every nesting of [2] and
// [3] nine levels deep: [2][3][3]...byte); each instantiation has its own
// copy of slices.SortFunc's pattern-defeating quicksort. That is a few MiB
// of code that main never runs (it calls cold only when given a negative
// ROUNDS), so that the text passes 8 MiB with a plain go build.
func cold(n int) int { return cold1[[2]byte](n) + cold1[[3]byte](n) }

func cold1[T any](n int) int { return cold2[[2]T](n) + cold2[[3]T](n) }
func cold2[T any](n int) int { return cold3[[2]T](n) + cold3[[3]T](n) }
func cold3[T any](n int) int { return cold4[[2]T](n) + cold4[[3]T](n) }
func cold4[T any](n int) int { return cold5[[2]T](n) + cold5[[3]T](n) }
func cold5[T any](n int) int { return cold6[[2]T](n) + cold6[[3]T](n) }
func cold6[T any](n int) int { return cold7[[2]T](n) + cold7[[3]T](n) }
func cold7[T any](n int) int { return cold8[[2]T](n) + cold8[[3]T](n) }
func cold8[T any](n int) int { return sortAll[[2]T](n) + sortAll[[3]T](n) }

func sortAll[T any](n int) int {
	xs := make([]T, n)
	slices.SortFunc(xs, func(a, b T) int { return len(xs) - n })
	return len(xs)
}
