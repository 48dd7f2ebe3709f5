// goeval is the Go workload of `make pgo-eval` (scripts/pgo-eval.sh):
// shapes rasterized into a grid through an interface (a hot dispatch that
// PGO can devirtualize), small hot functions, one that PGO can inline
// (shade), and a word count that calls a method through a method value (a
// -fm wrapper).
//
// usage: goeval [-cpuprofile FILE] SEED SIZE MIX
//
// MIX weighs the shape kinds (circles, rectangles, rings, triangles), e.g.
// 8,1,1,1. SEED and MIX make the training and the measured inputs differ.
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
)

type Shape interface {
	Contains(x, y float64) bool
	Weight() uint32
}

type Circle struct{ cx, cy, r float64 }
type Rect struct{ x0, y0, x1, y1 float64 }
type Ring struct{ cx, cy, r0, r1 float64 }
type Triangle struct{ ax, ay, bx, by, cx, cy float64 }

func (c Circle) Contains(x, y float64) bool { return sq(x-c.cx)+sq(y-c.cy) <= c.r*c.r }
func (c Circle) Weight() uint32             { return 3 }

func (r Rect) Contains(x, y float64) bool {
	return between(x, r.x0, r.x1) && between(y, r.y0, r.y1)
}
func (r Rect) Weight() uint32 { return 5 }

func (r Ring) Contains(x, y float64) bool {
	d := sq(x-r.cx) + sq(y-r.cy)
	return d >= r.r0*r.r0 && d <= r.r1*r.r1
}
func (r Ring) Weight() uint32 { return 7 }

func (t Triangle) Contains(x, y float64) bool {
	d1 := edge(x, y, t.ax, t.ay, t.bx, t.by)
	d2 := edge(x, y, t.bx, t.by, t.cx, t.cy)
	d3 := edge(x, y, t.cx, t.cy, t.ax, t.ay)
	neg := d1 < 0 || d2 < 0 || d3 < 0
	pos := d1 > 0 || d2 > 0 || d3 > 0
	return !(neg && pos)
}
func (t Triangle) Weight() uint32 { return 11 }

func sq(v float64) float64 { return v * v }

func between(v, lo, hi float64) bool { return v >= lo && v <= hi }

func edge(px, py, ax, ay, bx, by float64) float64 {
	return (px-bx)*(ay-by) - (ax-bx)*(py-by)
}

// mix folds a shape's weight into a cell: small and hot.
func mix(cell, w uint32) uint32 {
	cell ^= w * 0x9e3779b1
	cell = cell<<5 | cell>>27
	return cell + w
}

// shade dithers a cell by its position: hot, and too big for Go's
// inlining budget unless a profile says it is hot.
func shade(cell uint32, x, y float64) uint32 {
	level := uint32(x*7) + uint32(y*5)
	switch {
	case cell == 0:
		return level & 1
	case level%3 == 0:
		cell ^= cell >> 3
	case level%3 == 1:
		cell += cell << 2
	default:
		cell = cell*2654435761 + level
	}
	for k := uint32(0); k < level%4; k++ {
		cell = cell<<1 | cell>>31
	}
	if cell&0xff == 0xff {
		cell--
	}
	return cell
}

type rng struct{ s uint64 }

func (r *rng) float() float64 {
	r.s ^= r.s << 13
	r.s ^= r.s >> 7
	r.s ^= r.s << 17
	return float64(r.s>>11) / (1 << 53)
}

func makeShapes(r *rng, n int, mix []float64) []Shape {
	total := 0.0
	for _, m := range mix {
		total += m
	}
	shapes := make([]Shape, n)
	for i := range shapes {
		k, pick := 0, r.float()*total
		for k < len(mix)-1 && pick >= mix[k] {
			pick -= mix[k]
			k++
		}
		x, y, s := r.float(), r.float(), 0.02+0.1*r.float()
		switch k {
		case 0:
			shapes[i] = Circle{x, y, s}
		case 1:
			shapes[i] = Rect{x - s, y - s/2, x + s, y + s/2}
		case 2:
			shapes[i] = Ring{x, y, s / 2, s}
		default:
			shapes[i] = Triangle{x, y, x + s, y, x, y + s}
		}
	}
	return shapes
}

func render(shapes []Shape, size int) uint32 {
	grid := make([]uint32, size*size)
	for j := 0; j < size; j++ {
		y := float64(j) / float64(size)
		for i := 0; i < size; i++ {
			x := float64(i) / float64(size)
			cell := &grid[j*size+i]
			for _, s := range shapes {
				if s.Contains(x, y) {
					*cell = mix(*cell, s.Weight())
				}
			}
			*cell = shade(*cell, x, y)
		}
	}
	var h uint32
	for _, c := range grid {
		h = mix(h, c)
	}
	return h
}

// counter counts words; count is called through a method value.
type counter struct {
	words map[string]int
	runes int
}

func (c *counter) count(word string) {
	c.words[word]++
	for _, r := range word {
		if r > 'm' {
			c.runes++
		}
	}
}

func eachWord(text string, f func(string)) {
	start := -1
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == ' ' {
			if start >= 0 {
				f(text[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
}

func words(r *rng, n int) int {
	var b strings.Builder
	syll := []string{"ka", "lo", "mi", "ne", "su", "ta", "ro", "vi"}
	for i := 0; i < n; i++ {
		for k := 1 + int(r.float()*3); k > 0; k-- {
			b.WriteString(syll[int(r.float()*float64(len(syll)))])
		}
		b.WriteByte(' ')
	}
	c := &counter{words: map[string]int{}}
	for round := 0; round < 20; round++ {
		eachWord(b.String(), c.count)
	}
	return len(c.words) + c.runes
}

func main() {
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile (runtime/pprof) to this file")
	flag.Parse()
	if flag.NArg() != 3 {
		log.Fatal("usage: goeval [-cpuprofile FILE] SEED SIZE MIX")
	}
	seed, _ := strconv.ParseUint(flag.Arg(0), 10, 64)
	size, _ := strconv.Atoi(flag.Arg(1))
	var weights []float64
	for _, f := range strings.Split(flag.Arg(2), ",") {
		v, _ := strconv.ParseFloat(f, 64)
		weights = append(weights, math.Max(v, 0))
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	r := &rng{s: seed*0x9e3779b97f4a7c15 + 1}
	h := render(makeShapes(r, 40, weights), size)
	fmt.Println(h, words(r, size*size/32))
}
