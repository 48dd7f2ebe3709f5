// Command goexample is a CPU-bound Go workload for profile-guided
// optimization tests: the hot path is an interface call that resolves to
// main.rect.area almost always, which PGO can devirtualize and inline.
package main

// No imports: go build -pgo rebuilds every dependency with the profile,
// and the runtime alone is enough to rebuild in tests.

type shape interface {
	area() float64
}

type rect struct{ w, h float64 }

// area is hot. It calls a non-inlined function, so it is not a leaf and
// keeps a frame pointer: perf's frame-pointer unwinding then sees its
// caller (a frameless leaf hides its caller from the call chain).
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

func main() {
	shapes := makeShapes(nshapes)
	var sum float64
	for r := 0; r < rounds; r++ {
		sum += total(shapes)
	}
	println(sum)
}
