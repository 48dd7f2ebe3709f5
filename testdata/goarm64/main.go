// Command goarm64 is the Go workload of the AArch64 tests, traced under
// qemu-aarch64 (scripts/testdata.d/80-arm64.sh): goexample's hot
// interface call (main.rect.area almost always), small enough to trace
// every instruction in seconds. go build -pgo with its profile finds the
// hot callee (-gcflags=-d=pgodebug=2 prints "hottest callee").
package main

// No imports: go build -pgo rebuilds every dependency with the profile,
// and the runtime alone is enough to rebuild in tests.

type shape interface {
	area() float64
}

type rect struct{ w, h float64 }

// area is hot. It calls a non-inlined function, so it is not a leaf and
// keeps a frame pointer.
func (r rect) area() float64 {
	a := r.w * r.h
	if a < 0 {
		a = negative(a)
	}
	return a
}

//go:noinline
func negative(a float64) float64 { return -a }

type circle struct{ r float64 }

func (c circle) area() float64 { return 3.14159 * c.r * c.r }

// total sums the areas; the call below is the hot edge.
func total(shapes []shape) float64 {
	var s float64
	for _, sh := range shapes {
		s += sh.area()
	}
	return s
}

func makeShapes(n int) []shape {
	shapes := make([]shape, n)
	for i := range shapes {
		if i%100 == 0 {
			shapes[i] = circle{float64(i)}
		} else {
			shapes[i] = rect{float64(i), float64(i + 1)}
		}
	}
	return shapes
}

const rounds = 30

func main() {
	shapes := makeShapes(3000)
	var sum float64
	for r := 0; r < rounds; r++ {
		sum += total(shapes)
	}
	println(sum)
}
